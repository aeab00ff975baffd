import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";
import type { GrantIn } from "./types";

/** POST /api/admin/grants: complimentary access to one educator or all, optionally until a date. */
export function useGrantAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GrantIn) => unwrap(api.POST("/api/admin/grants", { body }), "Could not grant access"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
