import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** GET /api/billing/checkout/{sessionId}: where the returning checkout stands, read from Stripe by the server. */
export const checkoutStateQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: billingKeys.checkout(sessionId),
    queryFn: ({ signal }) =>
      unwrap(api.GET("/api/billing/checkout/{session_id}", { params: { path: { session_id: sessionId } }, signal }), "Could not read the checkout"),
    retry: false,
    // Stripe may finish the payment a moment after the browser returns: ask again until it has.
    refetchInterval: (query) => (query.state.data?.next === "wait" ? 2000 : false),
  });

export function useCheckoutState(sessionId: string) {
  return useQuery({ ...checkoutStateQueryOptions(sessionId), enabled: sessionId !== "" });
}
