import type { Schemas } from "../api/client";

type Outcome = NonNullable<Schemas["IdeaOut"]["outcome"]>;

/** How a completed idea ended, in the words: "Exit 2 reached", "Closed at 1.0921" ... */
export function outcomeLabel(outcome: Outcome, closePrice: string | null): string {
  switch (outcome) {
    case "exit1":
    case "exit2":
    case "exit3":
      return `Exit ${outcome.slice(-1)} reached`;
    case "invalidation":
      return "Stopped at invalidation";
    case "manual":
      return `Closed at ${closePrice ?? "a price"}`;
    case "not_triggered":
      return "Not triggered";
  }
}

/** Text colour of an R value: green gains, red losses. */
export function rTone(r: number | null | undefined): string {
  if (!r) return "text-muted";
  return r > 0 ? "text-emerald-600 dark:text-emerald-400" : "text-rose-600 dark:text-rose-400";
}

// Made once: `toLocaleDateString` with options builds a new formatter on every call.
let dayFormat: Intl.DateTimeFormat | undefined;

/** "12 Nov 2026" in the reader's locale. */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return ""; // a formatter throws where toLocaleDateString said "Invalid Date"
  dayFormat ??= new Intl.DateTimeFormat(undefined, { day: "numeric", month: "short", year: "numeric" });
  return dayFormat.format(date);
}
