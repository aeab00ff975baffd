import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";
import type { PlanIn } from "./types";

/** POST /api/admin/plans. */
export function useCreatePlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanIn) => unwrap(api.POST("/api/admin/plans", { body }), "Could not create the plan"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
