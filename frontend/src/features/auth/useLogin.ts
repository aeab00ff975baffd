import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type LoginRequest, type LoginResponse } from "../../api/client";
import { unwrap } from "../../api/errors";
import { rememberSignedIn } from "./signedInHint";
import { currentUserQueryKey } from "./useCurrentUser";

/** POST /api/auth/login. The server sets the HttpOnly session cookie; the token in the body is ignored. */
export function loginMutationOptions() {
  return {
    mutationKey: ["auth", "login"] as const,
    mutationFn: (body: LoginRequest): Promise<LoginResponse> => unwrap(api.POST("/api/auth/login", { body }), "Login failed"),
    retry: false,
  };
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    ...loginMutationOptions(),
    onSuccess: (response) => {
      rememberSignedIn(response.user.role);
      queryClient.setQueryData(currentUserQueryKey, response.user);
    },
  });
}
