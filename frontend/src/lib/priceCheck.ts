import type { Schemas } from "../api/client";
import { formatR, outcomeLabel } from "./outcome";

export type Verification = Schemas["Verification"];
export type Receipt = Schemas["ReceiptOut"];

const STEP_LABEL: Record<Receipt["step"], string> = {
  triggered: "Entry triggered",
  exit1: "Exit 1 reached",
  exit2: "Exit 2 reached",
  exit3: "Exit 3 reached",
  stop: "Invalidation traded",
};

export function stepLabel(step: Receipt["step"]): string {
  return STEP_LABEL[step];
}

/** The verdict's words: the educator's outcome labels, plus the ambiguous candle. */
function verdictLabel(v: Verification): string {
  if (v.outcome === "ambiguous") return "Ambiguous candle, counted as the stop";
  if (v.outcome === null) return "settled";
  return outcomeLabel(v.outcome, v.settlementPrice);
}

/** The card's one line: "Price check: waiting for entry", "... entry triggered, Exit 1 reached", "... Exit 2 reached +2.00 R". */
export function priceCheckText(v: Verification | null | undefined): string {
  if (!v || v.state === "waiting") return "Price check: waiting for entry";
  if (v.state === "off") return "Price check: off";
  if (v.state === "unverifiable") return `Price check: not verified - ${v.reason ?? "unknown reason"}`;
  if (v.state === "triggered") {
    const exits = v.receipts.filter((r) => r.step.startsWith("exit")).map((r) => `, ${stepLabel(r.step)}`);
    return `Price check: entry triggered${exits.join("")}`;
  }
  const r = v.outcome === "not_triggered" ? "" : ` ${formatR(v.rMultiple)}`;
  return `Price check: ${verdictLabel(v)}${r}`;
}

/** "Differs from the educator's call" shows when both verdicts exist and disagree. */
export function differsFromEducator(v: Verification | null | undefined): boolean {
  return v?.agrees === false;
}

export const FEED_LABEL: Record<NonNullable<Verification["feed"]>, string> = { binance: "Binance", oanda: "OANDA" };
