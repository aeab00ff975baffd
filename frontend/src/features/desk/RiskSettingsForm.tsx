import { useId, useState, type FormEvent } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import { MAX_RISK_PERCENT, RISK_LIMIT_MESSAGE, highRiskWarning } from "../../lib/positionSize";
import type { RiskSettings } from "./types";
import { useRiskSettings } from "./useRiskSettings";
import { updateRiskSettingsKey, useUpdateRiskSettings } from "./useUpdateRiskSettings";

/** Account size, currency, risk per trade and leverage; used on the profile page and in the Position size panel. */
export function RiskSettingsForm({ onSaved, compact = false }: { onSaved?: () => void; compact?: boolean }) {
  const settings = useRiskSettings();
  if (!settings.data) {
    return settings.isError ? <ErrorAlert message={errorMessage(settings.error)} /> : <p className="text-sm text-muted">Loading…</p>;
  }
  return <RiskSettingsFields initial={settings.data} onSaved={onSaved} compact={compact} />;
}

function RiskSettingsFields({ initial, onSaved, compact }: { initial: RiskSettings; onSaved?: () => void; compact: boolean }) {
  const id = useId();
  const save = useUpdateRiskSettings();
  const kept = latestWrite(useKeptWrites<RiskSettings>(updateRiskSettingsKey, () => true));
  const [values, setValues] = useState({
    accountSize: String(initial.accountSize),
    accountCurrency: initial.accountCurrency,
    riskPercent: String(initial.riskPercent),
    leverage: String(initial.leverage),
  });
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  const typedRisk = Number(values.riskPercent.replace(/,/g, ""));
  const overLimit = values.riskPercent.trim() !== "" && Number.isFinite(typedRisk) && typedRisk > MAX_RISK_PERCENT;
  const warning = overLimit ? null : highRiskWarning(typedRisk);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Refused here too, so a change made without a connection is not kept only to be refused later.
    if (overLimit) return;
    // Sent as typed: the server answers a clear 422 for anything out of range, and nothing is saved.
    const number = (text: string) => (text.trim() === "" ? text : Number(text.replace(/,/g, "")));
    save.mutate(
      {
        accountSize: number(values.accountSize) as number,
        accountCurrency: values.accountCurrency,
        riskPercent: number(values.riskPercent) as number,
        leverage: number(values.leverage) as number,
      },
      {
        onSuccess: () => {
          toast.success("Risk settings saved");
          onSaved?.();
        },
      },
    );
  };

  const fields = [
    { key: "accountSize", label: "Account size", mode: "decimal" },
    { key: "accountCurrency", label: "Account currency", mode: "text" },
    { key: "riskPercent", label: "Risk per trade (%)", mode: "decimal" },
    { key: "leverage", label: "Leverage", mode: "decimal" },
  ] as const;

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="Risk settings">
      <div className={compact ? "grid grid-cols-2 gap-2" : "grid gap-3 sm:grid-cols-2"}>
        {fields.map((f) => (
          <div key={f.key}>
            <Label htmlFor={`${id}-${f.key}`} className={compact ? "text-xs" : undefined}>
              {f.label}
            </Label>
            <Input
              id={`${id}-${f.key}`}
              inputMode={f.mode}
              autoComplete="off"
              value={values[f.key]}
              onChange={set(f.key)}
              className={compact ? "h-11 px-3 text-sm" : undefined}
            />
          </div>
        ))}
      </div>
      {overLimit ? (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {RISK_LIMIT_MESSAGE}
        </p>
      ) : warning ? (
        <p className="text-sm font-medium text-amber-700 dark:text-amber-300">{warning}</p>
      ) : null}
      {kept ? <WriteStatus state={kept.state} message={kept.message} /> : save.isError ? <ErrorAlert message={errorMessage(save.error)} /> : null}
      <Button type="submit" size="sm" disabled={save.isPending && !save.isPaused}>
        {save.isPending && !save.isPaused ? "Saving..." : "Save risk settings"}
      </Button>
    </form>
  );
}
