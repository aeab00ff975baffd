import { Plus } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../api/errors";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Select } from "../../components/Select";
import { Spinner } from "../../components/Spinner";
import { formatPrice, parseAmount } from "./money";
import type { AdminPlan, Plan } from "./types";
import { useAdminPlans } from "./useAdminPlans";
import { useCreatePlan } from "./useCreatePlan";
import { useUpdatePlan } from "./useUpdatePlan";

type Educator = Plan["educators"][number];
const cell = "block py-0.5 md:table-cell md:px-3 md:py-2.5 before:mr-1.5 before:text-muted before:content-[attr(data-label)':'] md:before:content-none";

/** Create a plan: one educator or all, a price per month or year, a trial of 0-30 days. */
function NewPlanForm({ educators }: { educators: Educator[] }) {
  const id = useId();
  const create = useCreatePlan();
  const [name, setName] = useState("");
  const [scope, setScope] = useState("all");
  const [price, setPrice] = useState("");
  const [currency, setCurrency] = useState("usd");
  const [interval, setInterval] = useState<"month" | "year">("month");
  const [trialDays, setTrialDays] = useState("0");
  const [invalid, setInvalid] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const unitAmount = parseAmount(price);
    const trial = Number(trialDays);
    if (unitAmount === null) return setInvalid("Enter the price as a number, e.g. 29 or 29.50");
    if (!Number.isInteger(trial) || trial < 0 || trial > 30) return setInvalid("Trial days must be between 0 and 30");
    setInvalid(null);
    create.mutate(
      {
        name: name.trim(),
        scope: scope === "all" ? "all" : "educator",
        educatorId: scope === "all" ? null : Number(scope),
        unitAmount,
        currency,
        interval,
        trialDays: trial,
        active: true,
      },
      { onSuccess: () => { setName(""); setPrice(""); setTrialDays("0"); } },
    );
  };

  return (
    <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[2fr_1.5fr_1fr_0.8fr_1fr_0.8fr_auto] lg:items-end">
      <div>
        <Label htmlFor={`${id}-name`}>Plan name</Label>
        <Input id={`${id}-name`} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-scope`}>Educators</Label>
        <Select id={`${id}-scope`} value={scope} onChange={(e) => setScope(e.target.value)}>
          <option value="all">All educators</option>
          {educators.map((educator) => (
            <option key={educator.id} value={String(educator.id)}>{educator.name}</option>
          ))}
        </Select>
      </div>
      <div>
        <Label htmlFor={`${id}-price`}>Price</Label>
        <Input id={`${id}-price`} required inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-currency`}>Currency</Label>
        <Select id={`${id}-currency`} value={currency} onChange={(e) => setCurrency(e.target.value)}>
          <option value="usd">USD</option>
          <option value="eur">EUR</option>
          <option value="gbp">GBP</option>
        </Select>
      </div>
      <div>
        <Label htmlFor={`${id}-interval`}>Billed every</Label>
        <Select id={`${id}-interval`} value={interval} onChange={(e) => setInterval(e.target.value === "year" ? "year" : "month")}>
          <option value="month">Month</option>
          <option value="year">Year</option>
        </Select>
      </div>
      <div>
        <Label htmlFor={`${id}-trial`}>Trial days</Label>
        <Input id={`${id}-trial`} type="number" min={0} max={30} value={trialDays} onChange={(e) => setTrialDays(e.target.value)} />
      </div>
      <Button type="submit" disabled={create.isPending} className="h-12">
        <Plus className="h-4 w-4" aria-hidden="true" />
        Create plan
      </Button>
      {invalid ? <ErrorAlert className="sm:col-span-2 lg:col-span-7" message={invalid} /> : null}
      {create.isError ? <ErrorAlert className="sm:col-span-2 lg:col-span-7" message={errorMessage(create.error, "Could not create the plan")} /> : null}
    </form>
  );
}

function PlanRow({ plan }: { plan: AdminPlan }) {
  const update = useUpdatePlan();
  const scope = plan.scope === "all" ? "All educators" : (plan.educators[0]?.name ?? `Educator ${plan.educatorId}`);
  return (
    <tr className="mb-3 block rounded-xl border border-line p-3 md:mb-0 md:table-row md:rounded-none md:border-0 md:border-b md:p-0">
      <td data-label="Plan" className={`${cell} font-semibold text-fg`}>{plan.name}</td>
      <td data-label="Educators" className={`${cell} text-fg`}>{scope}</td>
      <td data-label="Price" className={`${cell} text-fg`}>{formatPrice(plan.unitAmount, plan.currency, plan.interval)}</td>
      <td data-label="Trial" className={`${cell} text-muted`}>{plan.trialDays ? `${plan.trialDays} days` : "None"}</td>
      <td data-label="Subscribers" className={`${cell} text-fg`}>{plan.stats.subscribers}</td>
      <td data-label="Trialing" className={`${cell} text-fg`}>{plan.stats.trialing}</td>
      <td data-label="Past due" className={`${cell} text-fg`}>{plan.stats.pastDue}</td>
      <td data-label="MRR" className={`${cell} text-fg`}>{formatPrice(plan.stats.monthlyRecurringRevenue, plan.currency)}</td>
      <td data-label="State" className={cell}>
        <Badge tone={plan.active ? "green" : "red"}>{plan.active ? "Active" : "Inactive"}</Badge>
      </td>
      <td className="block pt-2 md:table-cell md:px-3 md:py-2.5">
        <Button
          variant="outline"
          size="sm"
          disabled={update.isPending}
          onClick={() => update.mutate({ id: plan.id, body: { active: !plan.active } })}
          aria-label={`${plan.active ? "Deactivate" : "Activate"} ${plan.name}`}
        >
          {plan.active ? "Deactivate" : "Activate"}
        </Button>
        {update.isError ? <ErrorAlert className="mt-2" message={errorMessage(update.error, "Could not change the plan")} /> : null}
      </td>
    </tr>
  );
}

/** The plans: what each costs, who subscribes, and the revenue that recurs each month. */
export function PlansCard({ educators }: { educators: Educator[] }) {
  const plans = useAdminPlans();
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="mb-3 text-lg font-bold text-fg">Plans</h2>
      <NewPlanForm educators={educators} />
      {plans.isError ? <ErrorAlert className="mt-3" message={errorMessage(plans.error, "Could not load the plans")} /> : null}
      {plans.isPending ? <Spinner className="mx-auto mt-6 h-6 w-6" /> : null}
      {plans.data ? (
        <table className="mt-4 w-full text-sm md:table">
          <caption className="sr-only">Plans</caption>
          <thead className="sr-only md:not-sr-only">
            <tr className="border-b border-line text-left text-xs uppercase tracking-wide text-muted">
              {["Plan", "Educators", "Price", "Trial", "Subscribers", "Trialing", "Past due", "MRR", "State", "Actions"].map((name) => (
                <th key={name} scope="col" className="md:px-3 md:py-2">{name}</th>
              ))}
            </tr>
          </thead>
          <tbody className="block md:table-row-group">
            {plans.data.map((plan) => (
              <PlanRow key={plan.id} plan={plan} />
            ))}
          </tbody>
        </table>
      ) : null}
      {plans.data?.length === 0 ? <p className="py-6 text-center text-sm text-muted">No plans yet.</p> : null}
    </Card>
  );
}
