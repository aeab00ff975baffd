import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";

export type MemberAction = "disable" | "enable" | "sign-out";

/** POST /api/admin/members/{id}/disable | enable | sign-out (each answers with the member). */
function callAction(action: MemberAction, memberId: number) {
  const params = { path: { member_id: memberId } };
  if (action === "disable") return unwrap(api.POST("/api/admin/members/{member_id}/disable", { params }), "Could not disable the member");
  if (action === "enable") return unwrap(api.POST("/api/admin/members/{member_id}/enable", { params }), "Could not enable the member");
  return unwrap(api.POST("/api/admin/members/{member_id}/sign-out", { params }), "Could not sign the member out");
}

export function useMemberAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, memberId }: { action: MemberAction; memberId: number }) => callAction(action, memberId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
