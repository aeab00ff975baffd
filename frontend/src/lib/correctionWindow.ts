import type { Schemas } from "../api/client";
import { formatUtcTime } from "./format";

type Verification = Schemas["Verification"];
type Outcome = NonNullable<Schemas["IdeaOut"]["outcome"]>;

const DAY = 86_400_000;

/**
 * "until 14:32 UTC today (13 min)": when a recorded result stops being correctable, in UTC (the record's clock,
 * decision 0016), the day in words and the time left. Past moments read "until 14:32 UTC today (now)".
 */
export function correctableUntilText(untilIso: string, now: Date = new Date()): string {
  const until = new Date(untilIso);
  const dayOf = (d: Date) => Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const days = Math.round((dayOf(until) - dayOf(now)) / DAY);
  const day =
    days === 0
      ? "today"
      : days === 1
        ? "tomorrow"
        : `on ${until.getUTCDate()} ${until.toLocaleString("en-GB", { month: "short", timeZone: "UTC" })}`;
  const minutes = Math.ceil((until.getTime() - now.getTime()) / 60_000);
  const left = minutes <= 0 ? "now" : minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return `until ${formatUtcTime(until)} ${day} (${left})`;
}

/** How the educator's choice is named in the question: "Exit 1", "the stop", "a close at 1.0921". */
function choiceName(outcome: Outcome, closePrice?: string | null): string {
  if (outcome === "exit1" || outcome === "exit2" || outcome === "exit3") return `Exit ${outcome.slice(-1)}`;
  if (outcome === "invalidation") return "the stop";
  if (outcome === "manual") return closePrice ? `a close at ${closePrice}` : "a close at a price";
  return "Invalid";
}

/** What the price check found, as a clause: "the entry never triggered", "Exit 2 was reached". */
function checkSays(v: Verification, outcome: Outcome): string | null {
  const steps = new Set(v.receipts.map((r) => r.step));
  if (v.state === "waiting") return outcome === "not_triggered" ? null : "the entry never triggered";
  if (v.state === "triggered") {
    if (outcome === "not_triggered") return "the entry triggered";
    if ((outcome === "exit1" || outcome === "exit2" || outcome === "exit3") && !steps.has(outcome)) {
      return `Exit ${outcome.slice(-1)} has not been reached`;
    }
    if (outcome === "invalidation" && !steps.has("stop")) return "the invalidation level has not traded";
    return null;
  }
  if (v.state !== "settled" || v.outcome === null || outcome === "manual" || v.outcome === outcome) return null;
  if (v.outcome === "ambiguous" && outcome === "invalidation") return null; // an ambiguous candle counts as the stop
  switch (v.outcome) {
    case "not_triggered":
      return "the entry never triggered";
    case "invalidation":
      return "the invalidation level traded first";
    case "ambiguous":
      return "one candle touched both the stop and an exit, which counts as the stop";
    case "exit1":
    case "exit2":
    case "exit3":
      return `the idea reached Exit ${v.outcome.slice(-1)}`;
    default:
      return null;
  }
}

/**
 * The one question asked before recording an outcome the price check contradicts: "The price check says the entry
 * never triggered. Record Exit 1 anyway?"; null when the check agrees, has no verdict, or is off.
 */
export function contradictionQuestion(v: Verification | null | undefined, outcome: Outcome, closePrice?: string | null): string | null {
  if (!v || v.state === "off" || v.state === "unverifiable") return null;
  const says = checkSays(v, outcome);
  if (says === null) return null;
  return `The price check says ${says}. Record ${choiceName(outcome, closePrice)} anyway?`;
}
