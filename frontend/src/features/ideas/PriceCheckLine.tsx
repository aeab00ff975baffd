import { Scale } from "lucide-react";
import { useState } from "react";
import { Badge } from "../../components/Badge";
import { Dialog } from "../../components/Dialog";
import { cn } from "../../components/cn";
import { formatR } from "../../lib/outcome";
import { FEED_LABEL, differsFromEducator, priceCheckText, stepLabel, type Verification } from "../../lib/priceCheck";
import type { Idea } from "./types";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** The idea's price check in one line (decision 0050); it opens the receipts: feed, symbol, each step's candle. */
export function PriceCheckLine({ idea }: { idea: Idea }) {
  const [open, setOpen] = useState(false);
  const v = idea.verification ?? null;
  const text = priceCheckText(v);
  const differs = differsFromEducator(v);
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <Dialog
        title={`Price check of ${idea.pair}`}
        open={open}
        onOpenChange={setOpen}
        className="max-w-lg"
        trigger={
          <button
            type="button"
            className="-my-1 inline-flex min-h-11 items-center gap-1.5 rounded-md py-1 text-left text-muted underline-offset-2 hover:text-fg hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:min-h-0"
          >
            <Scale className="h-4 w-4 shrink-0" aria-hidden="true" />
            <span>{text}</span>
          </button>
        }
      >
        <Receipts v={v} />
      </Dialog>
      {differs ? <Badge tone="amber">Differs from the educator&apos;s call</Badge> : null}
    </div>
  );
}

function Receipts({ v }: { v: Verification | null }) {
  if (!v) return <p className="text-sm text-muted">The price check starts within seconds of publishing.</p>;
  return (
    <div className="space-y-3 text-sm">
      <p className="text-fg">{priceCheckText(v)}</p>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-muted">
        <dt>Feed</dt>
        <dd className="text-fg">{v.feed ? FEED_LABEL[v.feed] : "none"}</dd>
        <dt>Symbol</dt>
        <dd className="font-mono text-fg">{v.symbol ?? "none"}</dd>
        {v.settlementPrice ? (
          <>
            <dt>Settled at</dt>
            <dd className="font-mono text-fg">{v.settlementPrice}</dd>
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
                {stepLabel(r.step)} at <span className="font-mono">{r.price}</span>
                {r.side ? ` (${r.side})` : ""}
              </p>
              <p className="text-xs text-muted">
                {r.granularity} candle of {when(r.candleTime)}: O {r.open} H {r.high} L {r.low} C {r.close}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
