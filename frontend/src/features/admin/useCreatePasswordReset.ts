import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";

export interface ResetLink {
  resetUrl: string;
  expiresAt: string;
}

/**
 * The last link made for each member in this tab: the dialog shows it again until it expires instead of making a
 * new one (which would void the one just sent) on every open. Kept in memory only: it is a credential.
 */
const links = new Map<number, ResetLink>();

export function currentResetLink(memberId: number, now = Date.now()): ResetLink | null {
  const link = links.get(memberId);
  if (link && Date.parse(link.expiresAt) > now) return link;
  links.delete(memberId);
  return null;
}

/** After Disable (which voids the member's links). */
export function forgetResetLink(memberId: number): void {
  links.delete(memberId);
}

/** POST /api/admin/members/{id}/password-reset: a one-use link (24 hours). */
export function useCreatePasswordReset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) =>
      unwrap(api.POST("/api/admin/members/{member_id}/password-reset", { params: { path: { member_id: memberId } } }), "Could not create the reset link"),
    onSuccess: (link, memberId) => void links.set(memberId, { resetUrl: link.resetUrl, expiresAt: link.expiresAt }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.audit(1) }),
  });
}
