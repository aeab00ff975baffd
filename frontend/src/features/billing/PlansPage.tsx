import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { HomeHeader } from "../../components/HomeHeader";
import { Spinner } from "../../components/Spinner";
import { formatPrice } from "./money";
import type { Plan } from "./types";
import { usePlans } from "./usePlans";
import { SubscribeButton } from "./SubscribeButton";

function PlanCard({ plan, paymentsEnabled }: { plan: Plan; paymentsEnabled: boolean }) {
  return (
    <Card className="flex flex-col gap-3 p-5">
      <div>
        <h2 className="text-lg font-bold text-fg">{plan.name}</h2>
        <p className="mt-1 text-2xl font-bold text-fg">{formatPrice(plan.unitAmount, plan.currency, plan.interval)}</p>
        {plan.trialDays ? <p className="text-sm text-emerald-600 dark:text-emerald-400">{plan.trialDays}-day free trial</p> : null}
      </div>
      <ul className="space-y-1 text-sm text-fg">
        {plan.educators.map((educator) => (
          <li key={educator.id} className="flex items-center gap-2">
            <CheckCircle2 className="h-4 w-4 shrink-0 text-emerald-500" aria-hidden="true" />
            {educator.name}
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-2">
        {paymentsEnabled ? <SubscribeButton plan={plan} /> : <p className="text-sm text-muted">Payments are not set up yet</p>}
      </div>
    </Card>
  );
}

/** /plans: every active plan, its educators and price (no login); the records are public on /proof. */
export function PlansPage() {
  const plans = usePlans();
  return (
    <div className="min-h-dvh bg-surface">
      <HomeHeader />
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
        <div>
          <h1 className="text-2xl font-bold text-fg">Plans</h1>
          <p className="mt-1 text-sm text-muted">
            A plan opens its educators' active ideas, their live updates and the chat rooms. Completed ideas and every
            educator's price-checked record stay open to all:{" "}
            <Link to="/proof" className="font-semibold text-emerald-600 hover:underline dark:text-emerald-400">
              how we keep the record honest
            </Link>
            .
          </p>
        </div>
        {plans.isPending ? <Spinner className="mx-auto h-6 w-6" /> : null}
        {plans.isError ? <ErrorAlert message="Could not load the plans" /> : null}
        {plans.data ? (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {plans.data.plans.map((plan) => (
              <PlanCard key={plan.id} plan={plan} paymentsEnabled={plans.data.paymentsEnabled} />
            ))}
          </div>
        ) : null}
        {plans.data?.plans.length === 0 ? <p className="text-center text-sm text-muted">No plans are on offer yet.</p> : null}
      </main>
    </div>
  );
}
