import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** GET /api/me/billing: the member's grants and their state. */
export const myBillingQueryOptions = queryOptions({
  queryKey: billingKeys.mine,
  queryFn: ({ signal }) => unwrap(api.GET("/api/me/billing", { signal }), "Could not load your billing"),
});

export function useMyBilling() {
  return useQuery(myBillingQueryOptions);
}
