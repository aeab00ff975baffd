import { Trophy } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Spinner } from "../../components/Spinner";
import { cn } from "../../components/cn";
import { formatNumber, formatPercent, formatRate } from "../../lib/format";
import { Figure } from "./Figures";
import type { ChallengeParams, RecordFilters } from "./types";
import { useChallenge } from "./useChallenge";

type RuleName = Exclude<keyof ChallengeParams, "market" | "setup">;
/** The record page's setup filter, which the challenge follows like the market. */
type ChosenSetup = { id: number; name: string };

/** The rules as common prop-firm challenges set them (issue #42), each editable within what the server accepts. */
const RULES: Array<{ name: RuleName; label: string; initial: string; min: number; max: number; step: string }> = [
  { name: "riskPercent", label: "Risk per idea (%)", initial: "1", min: 0.1, max: 5, step: "0.1" },
  { name: "profitTarget", label: "Profit target (%)", initial: "10", min: 1, max: 100, step: "0.5" },
  { name: "dailyLoss", label: "Daily loss limit (%)", initial: "5", min: 0.1, max: 100, step: "0.5" },
  { name: "maxLoss", label: "Maximum loss (%)", initial: "10", min: 0.1, max: 100, step: "0.5" },
  { name: "days", label: "Calendar days", initial: "30", min: 1, max: 365, step: "1" },
];

export const PAST_RESULTS = "Past results do not predict future ones.";

/** The form's text as numbers, or the first field out of range in words. */
function readRules(values: Record<RuleName, string>, market: RecordFilters["market"], setup?: ChosenSetup): ChallengeParams | string {
  const read: Partial<Record<RuleName, number>> = {};
  for (const rule of RULES) {
    const value = Number(values[rule.name].replace(",", "."));
    const whole = rule.name === "days";
    if (!values[rule.name].trim() || !Number.isFinite(value) || value < rule.min || value > rule.max || (whole && !Number.isInteger(value))) {
      return `${rule.label.replace(/ \(%\)$/, "")} must be ${whole ? "a whole number " : ""}from ${formatNumber(rule.min, whole ? 0 : 1)} to ${formatNumber(rule.max, 0)}.`;
    }
    read[rule.name] = value;
  }
  return { ...(read as Record<RuleName, number>), ...(market ? { market } : {}), ...(setup ? { setup: setup.id } : {}) };
}

/**
 * "Would you pass a funded-account challenge?" on an educator's record: the member's risk and the challenge's rules
 * in, the odds from 10,000 runs over the educator's price-checked results out (decision 0180), always with the
 * number of ideas they rest on and that past results do not predict future ones.
 */
export function ChallengePanel({ educatorId, market, setup }: { educatorId: number; market: RecordFilters["market"]; setup?: ChosenSetup }) {
  const headingId = useId();
  const [values, setValues] = useState<Record<RuleName, string>>(
    () => Object.fromEntries(RULES.map((r) => [r.name, r.initial])) as Record<RuleName, string>,
  );
  const [asked, setAsked] = useState<ChallengeParams | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const answer = useChallenge(educatorId, asked);
  const risk = asked ? formatPercent(asked.riskPercent) : formatPercent(Number(values.riskPercent) || null);

  const run = (event: FormEvent) => {
    event.preventDefault();
    const rules = readRules(values, market, setup);
    if (typeof rules === "string") {
      setProblem(rules);
      return;
    }
    setProblem(null);
    setAsked(rules);
  };

  const data = answer.data;
  const only = [market ? (market === "forex" ? "Forex" : "Crypto") : null, setup?.name].filter(Boolean);
  return (
    <section aria-labelledby={headingId}>
      <Card className="space-y-4 p-4 sm:p-6">
        <div className="flex items-start gap-3">
          <Trophy className="mt-0.5 h-5 w-5 shrink-0 text-amber-500" aria-hidden="true" />
          <div className="min-w-0">
            <h2 id={headingId} className="text-lg font-bold text-fg">
              Would you pass a funded-account challenge?
            </h2>
            <p className="text-sm text-muted">
              Following these ideas at {risk} risk per idea, would you pass a challenge? We replay the educator&apos;s
              price-checked results at their own pace 10,000 times{only.length > 0 ? ` (only ${only.join(", ")} ideas)` : ""}.
            </p>
          </div>
        </div>
        <form onSubmit={run} noValidate className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6 lg:items-end">
          {RULES.map((rule) => (
            <div key={rule.name}>
              <Label htmlFor={`${headingId}-${rule.name}`}>{rule.label}</Label>
              <Input
                id={`${headingId}-${rule.name}`}
                type="number"
                inputMode="decimal"
                min={rule.min}
                max={rule.max}
                step={rule.step}
                value={values[rule.name]}
                onChange={(e) => setValues((v) => ({ ...v, [rule.name]: e.target.value }))}
              />
            </div>
          ))}
          <Button type="submit" size="md" className="col-span-2 h-12 sm:col-span-1" disabled={answer.isFetching}>
            {answer.isFetching ? <Spinner className="h-4 w-4" /> : null}
            Run the challenge
          </Button>
        </form>
        {problem ? <ErrorAlert message={problem} /> : null}
        {!problem && answer.isError ? <ErrorAlert message={errorMessage(answer.error, "Failed to run the challenge")} /> : null}
        {data && !problem ? (
          <div className={cn("space-y-3 transition-opacity", answer.isFetching && "opacity-60")} aria-live="polite">
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <Figure
                label="Chance of passing"
                value={formatRate(data.pass.probability)}
                note={`${formatPercent(95, 0)} interval ${formatRate(data.pass.interval95[0])} to ${formatRate(data.pass.interval95[1])}`}
              />
              <Figure label="Median days to pass" value={data.medianDaysToPass === null ? "—" : formatNumber(data.medianDaysToPass, 0)} />
              <Figure label="Daily loss limit breached" value={formatRate(data.dailyLossBreach)} />
              <Figure label="Maximum loss breached" value={formatRate(data.maxLossBreach)} />
            </dl>
            <p className="text-xs text-muted">
              Based on {formatNumber(data.ideas, 0)} decided price-checked ideas · {formatNumber(data.runs, 0)} runs · seed {data.seed}
            </p>
          </div>
        ) : null}
        <p role="note" className="text-xs font-medium text-muted">
          {PAST_RESULTS}
        </p>
      </Card>
    </section>
  );
}
