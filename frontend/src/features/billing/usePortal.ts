import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

/** POST /api/billing/portal: a Stripe Billing Portal session for the member's subscriptions; answers its address. */
export function usePortal() {
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/billing/portal"), "Could not open billing"),
  });
}
