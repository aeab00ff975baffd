import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";

/** POST /api/admin/members/{id}/password-reset: a one-use link (24 hours). */
export function useCreatePasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) =>
      unwrap(api.POST("/api/admin/members/{member_id}/password-reset", { params: { path: { member_id: memberId } } }), "Could not create the reset link"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.audit(1) }),
  });
}
