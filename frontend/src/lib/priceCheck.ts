import type { Schemas } from "../api/client";
import { formatR, formatUtcTime } from "./format";
import { outcomeLabel } from "./outcome";

export type Verification = Schemas["Verification"];
export type Receipt = Schemas["ReceiptOut"];
type CandlesSource = Pick<Schemas["CandlesOut"], "feed" | "side">;

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

/** Dukascopy publishes an hour of ticks once the hour has ended: "14:00 UTC" for the hour in progress at `now`. */
export function awaitedHour(now: Date): string {
  const hourStart = new Date(now);
  hourStart.setUTCMinutes(0, 0, 0);
  return formatUtcTime(hourStart);
}

/** Reasons stored before they were written for members ("no forex feed configured") read as they mean. */
function unverifiableText(reason: string | null): string {
  if (!reason) return "not available yet";
  return reason.startsWith("not ") ? reason : `not verified - ${reason}`;
}

/** An open trade so far: "entry triggered, Exit 1 reached". */
function triggeredText(v: Verification): string {
  const exits = v.receipts.filter((r) => r.step.startsWith("exit")).map((r) => `, ${stepLabel(r.step)}`);
  return `entry triggered${exits.join("")}`;
}

/**
 * The card's one line: "Price check: waiting for entry", "... entry triggered, Exit 1 reached", "... Exit 2 reached
 * +2.00 R"; on Dukascopy's hourly data, "Price check: waiting for the 14:00 UTC data" while the idea is open.
 */
export function priceCheckText(v: Verification | null | undefined, now: Date = new Date()): string {
  if (v?.feed === "dukascopy" && (v.state === "waiting" || v.state === "triggered")) {
    const sofar = v.state === "triggered" ? `${triggeredText(v)}; ` : "";
    return `Price check: ${sofar}waiting for the ${awaitedHour(now)} data`;
  }
  if (!v || v.state === "waiting") return "Price check: waiting for entry";
  if (v.state === "off") return "Price check: off";
  if (v.state === "unverifiable") return `Price check: ${unverifiableText(v.reason)}`;
  if (v.state === "triggered") return `Price check: ${triggeredText(v)}`;
  const r = v.outcome === "not_triggered" ? "" : ` ${formatR(v.rMultiple)}`;
  return `Price check: ${verdictLabel(v)}${r}`;
}

/** "Differs from the educator's call" shows when both verdicts exist and disagree. */
export function differsFromEducator(v: Verification | null | undefined): boolean {
  return v?.agrees === false;
}

export const FEED_LABEL: Record<NonNullable<Verification["feed"]>, string> = {
  binance: "Binance",
  oanda: "OANDA",
  dukascopy: "Dukascopy",
};

/** "Prices from Dukascopy (bid)": the chart's source actually used, and the side drawn for forex. */
export function chartSource(data: CandlesSource): string {
  const feed = data.feed ? FEED_LABEL[data.feed] : "no feed";
  return `Prices from ${feed}${data.side ? ` (${data.side})` : ""}`;
}
