import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { forgetSignedIn } from "./signedInHint";

/** POST /api/auth/logout (204): revokes the session. */
export function logoutMutationOptions() {
  return {
    mutationKey: ["auth", "logout"] as const,
    mutationFn: async (): Promise<void> => {
      await unwrap(api.POST("/api/auth/logout"), "Logout failed");
    },
  };
}

/** Logs out, then clears every cached query and goes to /login (also when the call failed). */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    ...logoutMutationOptions(),
    onSettled: (_data, error) => {
      if (error) console.warn("Logout failed", error);
      forgetSignedIn();
      queryClient.clear();
      void navigate("/login", { replace: true });
    },
  });
}
