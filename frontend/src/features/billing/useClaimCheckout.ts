import { useMutation } from "@tanstack/react-query";
import { api, type LoginResponse } from "../../api/client";
import { unwrap } from "../../api/errors";

/** POST /api/billing/checkout/{sessionId}/account: a new visitor's password; answers like a login (cookie set). */
export function useClaimCheckout(sessionId: string) {
  return useMutation({
    mutationFn: (password: string): Promise<LoginResponse> =>
      unwrap(
        api.POST("/api/billing/checkout/{session_id}/account", { params: { path: { session_id: sessionId } }, body: { password } }),
        "Could not create your account",
      ),
  });
}
