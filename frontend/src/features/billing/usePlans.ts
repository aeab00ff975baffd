import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** GET /api/plans: the active plans and whether payments are set up (public). */
export const plansQueryOptions = queryOptions({
  queryKey: billingKeys.plans,
  queryFn: ({ signal }) => unwrap(api.GET("/api/plans", { signal }), "Could not load the plans"),
  staleTime: 60_000,
});

export function usePlans() {
  return useQuery(plansQueryOptions);
}
