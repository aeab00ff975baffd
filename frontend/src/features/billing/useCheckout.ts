import { useMutation } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";

/** POST /api/billing/checkout: a Stripe Checkout Session for the plan; answers the address to go to. */
export function useCheckout() {
  return useMutation({
    mutationFn: (body: Schemas["CheckoutIn"]) => unwrap(api.POST("/api/billing/checkout", { body }), "Could not start the checkout"),
  });
}
