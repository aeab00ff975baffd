import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** DELETE /api/admin/grants/{id}: ends a complimentary grant now. */
export function useRevokeGrant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE("/api/admin/grants/{grant_id}", { params: { path: { grant_id: id } } }), "Could not revoke access"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
