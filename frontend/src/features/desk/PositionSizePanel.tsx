import { AlertTriangle, Calculator, ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "../../components/cn";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { relativeAge } from "../../lib/relativeAge";
import { formatMidPrice, formatMoney, formatNumber, formatPercent, formatPrice, formatR, formatUnits } from "../../lib/format";
import { highRiskWarning, type Sizing } from "../../lib/positionSize";
import { R_RULE_SEVERAL_ENTRIES } from "../../lib/riskReward";
import { panelOpen, rememberPanelOpen } from "./deviceMemory";
import { RiskSettingsForm } from "./RiskSettingsForm";
import type { SizingState } from "./useSizing";

/** The "Position size" panel of a card: collapsed by default, open or closed as this device last left it. */
export function PositionSizePanel({ pair, sizing }: { pair: string; sizing: SizingState }) {
  const id = useId();
  const [open, setOpen] = useState(panelOpen);
  const [editing, setEditing] = useState(false);
  const toggle = () => {
    setOpen(!open);
    rememberPanelOpen(!open);
  };
  const { settings, result, rateCurrency, rate, rateFromFeedAt, setRate } = sizing;

  return (
    // A group, not a region: a list holds one panel per idea, and two ideas of a pair would make two landmarks of
    // one name (axe's landmark-unique).
    <div role="group" aria-label={`Position size for ${pair}`} className="rounded-xl border border-line">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={toggle}
          className="flex min-h-11 w-full items-center gap-2 rounded-xl px-3 text-left text-sm font-semibold text-fg hover:bg-card-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <Calculator className="h-4 w-4 text-emerald-500" aria-hidden="true" />
          <span className="flex-1">Position size</span>
          {!open && result?.ok && result.lots !== null ? <span className="font-mono text-xs text-muted">{formatNumber(result.lots)} lots</span> : null}
          <ChevronDown className={cn("h-4 w-4 text-muted transition-transform", open && "rotate-180")} aria-hidden="true" />
        </button>
      </h3>
      {/* The body is drawn only while shown (or while its settings form is open): a collapsed panel on every card
          would otherwise format figures nobody sees, and the first number format a page makes is slow to set up. */}
      <div id={`${id}-panel`} hidden={!open} className="space-y-3 px-3 pb-3">
        {open || editing ? (
          <>
            {settings ? (
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
                <span>
                  Account {formatMoney(settings.accountSize, settings.accountCurrency)} · Risk {formatPercent(settings.riskPercent, 2)} · Leverage {settings.leverage}×
                </span>
                <button type="button" onClick={() => setEditing(!editing)} className="min-h-11 font-semibold text-emerald-600 hover:underline dark:text-emerald-400 sm:min-h-0">
                  {editing ? "Close" : "Change"}
                </button>
              </p>
            ) : null}
            {settings && !editing && highRiskWarning(settings.riskPercent) ? (
              <p className="flex items-start gap-2 text-sm font-medium text-amber-700 dark:text-amber-300">
                <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
                {highRiskWarning(settings.riskPercent)}
              </p>
            ) : null}
            {editing ? <RiskSettingsForm compact onSaved={() => setEditing(false)} /> : null}
            {rateCurrency && settings ? (
              <div>
                <Label htmlFor={`${id}-rate`} className="text-xs">
                  {rateCurrency} → {settings.accountCurrency} rate
                </Label>
                <Input
                  id={`${id}-rate`}
                  inputMode="decimal"
                  autoComplete="off"
                  placeholder={`1 ${rateCurrency} in ${settings.accountCurrency}`}
                  value={rate}
                  onChange={(e) => setRate(e.target.value)}
                  aria-describedby={rateFromFeedAt ? `${id}-rate-source` : undefined}
                  className="h-11 px-3 text-sm"
                />
                {rateFromFeedAt ? (
                  <p id={`${id}-rate-source`} className="mt-1 text-xs text-muted">
                    From the last price check&apos;s prices ({relativeAge(rateFromFeedAt)}). Type your own to change it.
                  </p>
                ) : null}
              </div>
            ) : null}
            {result === null ? null : result.ok ? (
              <SizingFigures sizing={result} currency={settings?.accountCurrency ?? ""} accountSize={settings?.accountSize ?? 0} />
            ) : (
              <p role="status" className="text-sm text-muted">
                {result.message}
              </p>
            )}
          </>
        ) : null}
      </div>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-field px-2.5 py-1.5">
      <dt className="text-[11px] uppercase tracking-wide text-muted">{label}</dt>
      <dd className="break-words font-mono text-sm font-semibold text-fg">{value}</dd>
    </div>
  );
}

/** "This position's notional (120,444.00 USD) needs 120,444.00 USD of margin at 1×, more than your 10,000.00 USD account." */
export function exceedsText(s: Sizing, currency: string, accountSize: number): string {
  return `This position's notional (${formatMoney(s.notional, currency)}) needs ${formatMoney(s.margin, currency)} of margin at ${s.leverage}×, more than your ${formatMoney(accountSize, currency)} account: it could not be opened at this size.`;
}

function SizingFigures({ sizing: s, currency, accountSize }: { sizing: Sizing; currency: string; accountSize: number }) {
  return (
    <>
      <dl className="grid grid-cols-2 gap-2">
        {s.lots !== null ? <Figure label="Lots" value={`${formatNumber(s.lots)} lots`} /> : null}
        <Figure label="Units" value={`${formatUnits(s.units)} ${s.base}`} />
        {s.pips !== null ? <Figure label="Risk in pips" value={`${formatNumber(s.pips, 1)} pips`} /> : null}
        <Figure label="Risk" value={formatMoney(s.riskAmount, currency)} />
        <Figure label="Notional" value={formatMoney(s.notional, currency)} />
        <Figure label={`Margin at ${s.leverage}×`} value={formatMoney(s.margin, currency)} />
        {s.liquidationPrice !== null ? <Figure label="Est. liquidation" value={formatPrice(s.liquidationPrice, s.precision)} /> : null}
      </dl>
      {s.exceedsAccount ? (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-200">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {exceedsText(s, currency, accountSize)}
        </p>
      ) : null}
      {s.liquidationBeforeStop && s.liquidationPrice !== null ? (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-rose-500/30 bg-rose-500/10 px-3 py-2 text-sm text-rose-700 dark:text-rose-300">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          Liquidation at about {formatPrice(s.liquidationPrice, s.precision)} comes before the invalidation level {formatPrice(s.stop, s.precision)}: lower your leverage.
        </p>
      ) : null}
      {s.rewards.length > 0 ? (
        <table className="w-full text-sm">
          <caption className="sr-only">Reward per exit</caption>
          <thead>
            <tr className="text-left text-[11px] uppercase tracking-wide text-muted">
              <th scope="col" className="font-medium">Exit</th>
              <th scope="col" className="text-right font-medium">Reward</th>
              <th scope="col" className="text-right font-medium">R</th>
            </tr>
          </thead>
          <tbody className="font-mono">
            {s.rewards.map((r) => (
              <tr key={r.label}>
                <th scope="row" className="py-0.5 text-left font-normal text-muted">
                  {r.label} {r.level}
                </th>
                <td className={cn("text-right", r.amount < 0 && "text-rose-600 dark:text-rose-400")}>
                  {formatMoney(r.amount, currency, { signed: true })}
                </td>
                <td className="text-right">{formatR(r.r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {s.averagedEntry ? (
        <p className="text-xs text-muted">
          {R_RULE_SEVERAL_ENTRIES} ({formatMidPrice(s.entry, s.precision)}).
        </p>
      ) : null}
      <p className="text-[11px] text-muted">Estimates for education only: no fees, spreads or swaps.</p>
    </>
  );
}
