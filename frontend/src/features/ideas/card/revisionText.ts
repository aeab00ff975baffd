import type { Schemas } from "../../../api/client";
import { formatLevel } from "../../../lib/format";
import { STATUS_LABEL, type IdeaStatus } from "../../../lib/ideaStatus";
import { outcomeLabel } from "../../../lib/outcome";

type Outcome = NonNullable<Schemas["IdeaOut"]["outcome"]>;
export type RevisionLike = Pick<Schemas["RevisionOut"], "field" | "oldValue" | "newValue">;

/** Revision fields that are the idea's result (their own list); every other field is an edit (decision 0122). */
export const RESULT_FIELDS: ReadonlySet<string> = new Set(["status", "outcome", "closePrice"]);

const FIELD_LABEL: Record<string, string> = {
  marketType: "Market",
  orderType: "Direction",
  ideaType: "Idea type",
  pair: "Pair",
  timeFrame: "Time frame",
  entry1: "Entry 1",
  entry2: "Entry 2",
  invalidationLevel: "Invalidation",
  exit1: "Exit 1",
  exit2: "Exit 2",
  exit3: "Exit 3",
  notes: "Notes",
  status: "Status",
  outcome: "Outcome",
  closePrice: "Close price",
  images: "Photos",
  imageIds: "Photos",
  videoUrl: "Video",
  audioUrl: "Voice explanation",
};
const PRICES = new Set(["entry1", "entry2", "invalidationLevel", "exit1", "exit2", "exit3", "closePrice"]);
const OUTCOMES = new Set<string>(["exit1", "exit2", "exit3", "invalidation", "manual", "not_triggered"]);

export function fieldLabel(field: string): string {
  return FIELD_LABEL[field] ?? field;
}

/** One side of a change as the card writes it: "Exit 1 reached", "Successful", "1.0850", "2 photos"; "none" when empty. */
export function revisionValue(field: string, value: string | null, precision: number): string {
  if (value === null || value === "") return "none";
  switch (field) {
    case "status":
      return STATUS_LABEL[value as IdeaStatus] ?? value;
    case "outcome":
      return OUTCOMES.has(value) ? outcomeLabel(value as Outcome, null) : value;
    case "orderType":
      return value.toUpperCase() === "SELL" ? "Bearish" : "Bullish";
    case "imageIds":
    case "images": {
      const count = value.split(",").filter(Boolean).length;
      return `${count} photo${count === 1 ? "" : "s"}`;
    }
    case "audioUrl":
      return "a voice note";
    default:
      return PRICES.has(field) ? formatLevel(value, precision) : value;
  }
}

/** "Outcome: Exit 1 reached → none", "Status: Successful → Pending", "Entry 1: 1.0850 → 1.0860". */
export function revisionText(r: RevisionLike, precision: number): string {
  return `${fieldLabel(r.field)}: ${revisionValue(r.field, r.oldValue, precision)} → ${revisionValue(r.field, r.newValue, precision)}`;
}
