import { CreditCard } from "lucide-react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { ErrorAlert } from "../../components/ErrorAlert";
import type { Plan } from "./types";
import { useCheckout } from "./useCheckout";

/** Starts Stripe's checkout for the plan: the server answers with the address to go to. */
export function SubscribeButton({ plan }: { plan: Plan }) {
  const checkout = useCheckout();
  return (
    <>
      <Button
        className="w-full"
        disabled={checkout.isPending}
        aria-label={`Subscribe to ${plan.name}`}
        onClick={() => checkout.mutate({ planId: plan.id }, { onSuccess: ({ url }) => window.location.assign(url) })}
      >
        <CreditCard className="h-4 w-4" aria-hidden="true" />
        {plan.trialDays ? "Start free trial" : "Subscribe"}
      </Button>
      {checkout.isError ? <ErrorAlert className="mt-2" message={errorMessage(checkout.error, "Could not start the checkout")} /> : null}
    </>
  );
}
