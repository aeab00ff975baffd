import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";
import type { PlanPatch } from "./types";

/** PATCH /api/admin/plans/{id}: a new price is a new Stripe Price; subscribers keep theirs. */
export function useUpdatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: PlanPatch }) =>
      unwrap(api.PATCH("/api/admin/plans/{plan_id}", { params: { path: { plan_id: id } }, body }), "Could not change the plan"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
