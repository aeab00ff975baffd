import type { Schemas } from "../api/client";

type IdeaCreate = Schemas["IdeaCreate"];

/** The trade-idea form's values (levels are free text, spec §5). */
export interface IdeaFormValues {
  marketType: IdeaCreate["marketType"];
  orderType: IdeaCreate["orderType"];
  ideaType: IdeaCreate["ideaType"];
  pair: string;
  timeFrame: string;
  entry1: string;
  entry2: string;
  invalidationLevel: string;
  exit1: string;
  exit2: string;
  exit3: string;
  notes: string;
  /** https only; YouTube and Vimeo play embedded on the card. */
  videoUrl: string;
  /** The id of one of the educator's setups as the select holds it ("" for none). */
  setupId: string;
  /** Why the educator took it, shown as "Why: ..." under the levels (up to 1,000 characters). */
  reason: string;
}

/** Choices as `{value, label}` options, in the labels' order. A `Record` over a generated union names every value
 *  the API accepts (TypeScript fails when the backend adds or drops one), so no list is written twice. */
function choices<T extends string>(labels: Record<T, string>): ReadonlyArray<{ value: T; label: string }> {
  return (Object.keys(labels) as T[]).map((value) => ({ value, label: labels[value] }));
}

export const MARKET_TYPE_CHOICES = choices<IdeaCreate["marketType"]>({ Crypto: "Crypto", Forex: "Forex" });
export const ORDER_TYPE_CHOICES = choices<IdeaCreate["orderType"]>({ BUY: "Bullish", SELL: "Bearish" });
export const IDEA_TYPE_CHOICES = choices<IdeaCreate["ideaType"]>({ Leverage: "Leverage", Exchange: "Exchange" });

export const REQUIRED_FIELDS_MESSAGE = "Please fill in all required fields";
export const REQUIRED_IDEA_FIELDS = ["pair", "timeFrame", "entry1", "invalidationLevel", "exit1"] as const;
export type RequiredIdeaField = (typeof REQUIRED_IDEA_FIELDS)[number];

/** Spec §9 defaults: Crypto, Bullish (BUY), Leverage. */
export const EMPTY_IDEA_FORM: IdeaFormValues = {
  marketType: "Crypto",
  orderType: "BUY",
  ideaType: "Leverage",
  pair: "",
  timeFrame: "",
  entry1: "",
  entry2: "",
  invalidationLevel: "",
  exit1: "",
  exit2: "",
  exit3: "",
  notes: "",
  videoUrl: "",
  setupId: "",
  reason: "",
};

/** Required fields left blank (after trimming). */
export function missingIdeaFields(values: IdeaFormValues): RequiredIdeaField[] {
  return REQUIRED_IDEA_FIELDS.filter((f) => values[f].trim() === "");
}

export const REASON_MAX = 1000;
export const SETUP_REQUIRED_MESSAGE = "Please choose one of your setups";

/** The setup as the API takes it: its id, or null for none. */
export function setupIdOf(values: IdeaFormValues): number | null {
  return values.setupId === "" ? null : Number(values.setupId);
}

export function pairPlaceholder(marketType: IdeaFormValues["marketType"]): string {
  return marketType === "Forex" ? "EUR/USD" : "BTC/USDT";
}
