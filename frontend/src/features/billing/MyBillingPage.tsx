import { CreditCard } from "lucide-react";
import { Link } from "react-router";
import { errorMessage } from "../../api/errors";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Spinner } from "../../components/Spinner";
import { PageHeader } from "../../components/PageHeader";
import { grantWhen, paymentFailedText } from "./billingText";
import type { Grant } from "./types";
import { useMyBilling } from "./useMyBilling";
import { usePortal } from "./usePortal";

const STATUS: Record<string, string> = {
  trialing: "Trial",
  active: "Active",
  past_due: "Payment failed",
  canceled: "Canceled",
  complimentary: "Complimentary",
};

function GrantRow({ grant }: { grant: Grant }) {
  const when = grantWhen(grant);
  const name = grant.planName ?? (grant.educatorId === null ? "All educators" : "One educator");
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div>
        <p className="font-semibold text-fg">{name}</p>
        {when ? <p className="text-sm text-muted">{when}</p> : null}
      </div>
      <Badge tone={!grant.isOpen ? "neutral" : grant.status === "past_due" ? "amber" : "green"}>
        {grant.isOpen ? (STATUS[grant.status] ?? grant.status) : "Ended"}
      </Badge>
    </li>
  );
}

/** /customer/billing: the member's plans, their state and dates, a banner while a payment has failed, and Stripe's
 * Billing Portal behind "Manage billing". */
export function MyBillingPage() {
  const billing = useMyBilling();
  const portal = usePortal();
  const grants = billing.data?.grants ?? [];
  const failed = grants.map(paymentFailedText).filter((text): text is string => text !== null);
  const manageable = billing.data?.paymentsEnabled && grants.some((grant) => grant.kind === "subscription");

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: "/customer/dashboard", label: "Markets" }} title="Billing" width="3xl" />
      <main className="mx-auto max-w-3xl space-y-4 px-4 py-6">
        {failed.map((text) => (
          <p key={text} role="alert" className="rounded-xl border border-amber-500/40 bg-amber-500/10 px-4 py-3 text-sm font-semibold text-amber-800 dark:text-amber-200">
            {text}
          </p>
        ))}
        {billing.isPending ? <Spinner className="mx-auto h-6 w-6" /> : null}
        {billing.isError ? <ErrorAlert message={errorMessage(billing.error, "Could not load your billing")} /> : null}
        {billing.data ? (
          <Card className="p-5">
            <h2 className="text-base font-bold text-fg">Your plans</h2>
            {grants.length === 0 ? (
              <p className="mt-2 text-sm text-muted">
                No plan yet.{" "}
                <Link to="/plans" className="font-semibold text-emerald-600 underline dark:text-emerald-400">
                  See plans
                </Link>
              </p>
            ) : (
              <ul className="divide-y divide-line">
                {grants.map((grant) => (
                  <GrantRow key={grant.id} grant={grant} />
                ))}
              </ul>
            )}
            {manageable ? (
              <div className="mt-4 space-y-2">
                <Button onClick={() => portal.mutate(undefined, { onSuccess: ({ url }) => window.location.assign(url) })} disabled={portal.isPending}>
                  {portal.isPending ? <Spinner className="h-4 w-4" /> : <CreditCard className="h-4 w-4" aria-hidden="true" />}
                  Manage billing
                </Button>
                {portal.isError ? <ErrorAlert message={errorMessage(portal.error, "Could not open billing")} /> : null}
              </div>
            ) : null}
          </Card>
        ) : null}
      </main>
    </div>
  );
}
