import { useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** GET /api/admin/plans: every plan with its subscribers, trials, past_due and monthly recurring revenue. */
export function useAdminPlans() {
  return useQuery({
    queryKey: billingKeys.adminPlans,
    queryFn: ({ signal }) => unwrap(api.GET("/api/admin/plans", { signal }), "Could not load the plans"),
  });
}
