import { useMutation } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";

export type PasswordChange = Schemas["PasswordChange"];

/** POST /api/me/password: ends the user's other sessions and keeps this one. */
export function changePasswordMutationOptions() {
  return {
    mutationKey: ["profile", "change-password"] as const,
    mutationFn: (body: PasswordChange): Promise<Schemas["MessageResponse"]> =>
      unwrap(api.POST("/api/me/password", { body }), "Failed to change password"),
    retry: false,
  };
}

export function useChangePassword() {
  return useMutation(changePasswordMutationOptions());
}
