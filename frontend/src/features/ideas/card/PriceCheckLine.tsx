import { Info, Scale } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Badge } from "../../../components/Badge";
import { Dialog } from "../../../components/Dialog";
import { cn } from "../../../components/cn";
import { formatLevel, formatR, ideaPrecision } from "../../../lib/format";
import { outcomeLabel } from "../../../lib/outcome";
import { FEED_LABEL, differsFromEducator, priceCheckText, stepLabel, type Verification } from "../../../lib/priceCheck";
import type { Idea } from "../api/types";

/** What a price check is, one tap from every card (issue 37's wording). */
export const PRICE_CHECK_EXPLAINED =
  "We settle every idea from market prices as well, so you can compare the educator's call with what the market did.";
const WHY_THEY_DIFFER =
  "They differ because the market's candles reached another level first than the one the educator recorded (a candle that touched both the stop and an exit counts as the stop), or the educator closed at a price of their own.";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The idea's price check in one line (decision 0050); it opens the receipts: feed, symbol, each step's candle. */
export function PriceCheckLine({ idea }: { idea: Idea }) {
  const [open, setOpen] = useState(false);
  const [explained, setExplained] = useState(false);
  const v = idea.verification ?? null;
  const text = priceCheckText(v);
  const differs = differsFromEducator(v);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      {/* The line and its info button stay together: on a phone the line wraps inside, the button beside it. */}
      <div className="flex min-w-0 items-center gap-1">
        <Dialog
          title={`Price check of ${idea.pair}`}
          open={open}
          onOpenChange={setOpen}
          className="max-w-lg"
          trigger={
            <button
              type="button"
              className="-my-1 inline-flex min-h-11 min-w-0 items-center gap-1.5 rounded-md py-1 text-left text-muted underline-offset-2 hover:text-fg hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:min-h-0"
            >
              <Scale className="h-4 w-4 shrink-0" aria-hidden="true" />
              <span>{text}</span>
            </button>
          }
        >
          <Receipts v={v} idea={idea} />
        </Dialog>
        <button
          type="button"
          aria-label="What is a price check?"
          aria-expanded={explained}
          onClick={() => setExplained((shown) => !shown)}
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-6 sm:w-6"
        >
          <Info className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      {differs ? <Badge tone="amber">Differs from the educator&apos;s call</Badge> : null}
      {explained ? <p className="basis-full text-xs text-muted">{PRICE_CHECK_EXPLAINED}</p> : null}
    </div>
  );
}

/** The educator's call in the receipts' words: "Exit 1 reached +2.00 R", or "open" while there is none. */
function educatorCall(idea: Idea): string {
  if (idea.outcome === null) return "open";
  const r = idea.outcome === "not_triggered" ? "" : ` ${formatR(idea.rMultiple)}`;
  return `${outcomeLabel(idea.outcome, idea.closePrice)}${r}`;
}

function Receipts({ v, idea }: { v: Verification | null; idea: Idea }) {
  if (!v) return <p className="text-sm text-muted">The price check starts within seconds of publishing.</p>;
  const precision = ideaPrecision(idea);
  const price = (text: string) => formatLevel(text, precision);
  return (
    <div className="space-y-3 text-sm">
      <p className="text-muted">{PRICE_CHECK_EXPLAINED}</p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1" aria-label="Educator's call and price check">
        <dt className="text-muted">Educator&apos;s call</dt>
        <dd className="text-fg">{educatorCall(idea)}</dd>
        <dt className="text-muted">Price check</dt>
        <dd className="text-fg">{priceCheckText(v).replace(/^Price check: /, "")}</dd>
      </dl>
      {differsFromEducator(v) ? <p className="text-fg">{WHY_THEY_DIFFER}</p> : null}
      <p>
        <Link to="/proof" className="text-emerald-600 underline">
          How we keep the record honest
        </Link>
      </p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-muted">
        <dt>Feed</dt>
        <dd className="text-fg">{v.feed ? FEED_LABEL[v.feed] : "none"}</dd>
        <dt>Symbol</dt>
        <dd className="font-mono text-fg">{v.symbol ?? "none"}</dd>
        {v.detail ? (
          <>
            <dt>Detail</dt>
            <dd className="text-fg">{v.detail}</dd>
          </>
        ) : null}
        {v.settlementPrice ? (
          <>
            <dt>Settled at</dt>
            <dd className="font-mono text-fg">{price(v.settlementPrice)}</dd>
          </>
        ) : null}
        {v.maeR !== null ? (
          <>
            <dt>Worst move</dt>
            <dd className={cn("font-mono text-fg")}>{formatR(v.maeR)}</dd>
            <dt>Best move</dt>
            <dd className="font-mono text-fg">{formatR(v.mfeR)}</dd>
          </>
        ) : null}
      </dl>
      {v.receipts.length === 0 ? (
        <p className="text-muted">No step yet.</p>
      ) : (
        <ol className="space-y-2" aria-label="Receipts">
          {v.receipts.map((r) => (
            <li key={`${r.step}-${r.at}`} className="rounded-lg border border-line bg-field px-3 py-2">
              <p className="font-medium text-fg">
                {stepLabel(r.step)} at <span className="font-mono">{price(r.price)}</span>
                {r.side ? ` (${r.side})` : ""}
              </p>
              <p className="text-xs text-muted">
                {r.granularity} candle of {when(r.candleTime)}: O {price(r.open)} H {price(r.high)} L {price(r.low)} C {price(r.close)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
