import { AlertTriangle, Calculator, ChevronDown } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "../../components/cn";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { formatR } from "../../lib/outcome";
import { relativeAge } from "../../lib/relativeAge";
import { formatAmount, formatPrice, formatUnits, highRiskWarning, type Sizing } from "../../lib/positionSize";
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
    <section aria-label={`Position size for ${pair}`} className="rounded-xl border border-line">
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
          {!open && result?.ok && result.lots !== null ? <span className="font-mono text-xs text-muted">{result.lots.toFixed(2)} lots</span> : null}
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
                  Account {formatAmount(settings.accountSize)} {settings.accountCurrency} · Risk {settings.riskPercent}% · Leverage {settings.leverage}×
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
                    From the price feed ({relativeAge(rateFromFeedAt)}). Type your own to change it.
                  </p>
                ) : null}
              </div>
            ) : null}
            {result === null ? null : result.ok ? (
              <SizingFigures sizing={result} currency={settings?.accountCurrency ?? ""} />
            ) : (
              <p role="status" className="text-sm text-muted">
                {result.message}
              </p>
            )}
          </>
        ) : null}
      </div>
    </section>
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

function SizingFigures({ sizing: s, currency }: { sizing: Sizing; currency: string }) {
  return (
    <>
      <dl className="grid grid-cols-2 gap-2">
        {s.lots !== null ? <Figure label="Lots" value={`${s.lots.toFixed(2)} lots`} /> : null}
        <Figure label="Units" value={`${formatUnits(s.units)} ${s.base}`} />
        {s.pips !== null ? <Figure label="Risk in pips" value={`${s.pips.toFixed(1)} pips`} /> : null}
        <Figure label="Risk" value={`${formatAmount(s.riskAmount)} ${currency}`} />
        <Figure label="Notional" value={`${formatAmount(s.notional)} ${currency}`} />
        {s.margin !== null ? <Figure label="Margin" value={`${formatAmount(s.margin)} ${currency}`} /> : null}
        {s.liquidationPrice !== null ? <Figure label="Est. liquidation" value={formatPrice(s.liquidationPrice)} /> : null}
      </dl>
      {s.liquidationBeforeStop && s.liquidationPrice !== null ? (
        <p role="alert" className="flex items-start gap-2 rounded-lg border border-rose-500/30 bg-rose-500/10 px-3 py-2 text-sm text-rose-700 dark:text-rose-300">
          <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          Liquidation at about {formatPrice(s.liquidationPrice)} comes before the invalidation level {formatPrice(s.stop)}: lower your leverage.
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
                  {formatAmount(r.amount)} {currency}
                </td>
                <td className="text-right">{formatR(r.r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <p className="text-[11px] text-muted">Estimates for education only: no fees, spreads or swaps.</p>
    </>
  );
}
