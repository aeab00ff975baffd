import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";

/** POST /api/admin/invites: a one-use link (7 days) for a new customer. */
export function useInviteCustomer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas["InviteIn"]) => unwrap(api.POST("/api/admin/invites", { body }), "Could not create the invitation"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
