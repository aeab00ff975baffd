import type { Schemas } from "../../api/client";

export type Profile = Schemas["ProfileOut"];
export type ProfileUpdate = Schemas["ProfileUpdate"];

export const profileKeys = {
  me: ["profile", "me"] as const,
};

/** Spec §Validation. */
export const MAX_NAME = 100;
export const MAX_BIO = 1000;
export const MIN_YEARS = 0;
export const MAX_YEARS = 50;

export const SPECIALTIES = [
  "Forex Trading",
  "Cryptocurrency",
  "Options Trading",
  "Day Trading",
  "Swing Trading",
  "Technical Analysis",
  "Fundamental Analysis",
] as const;
type TradingStyle = NonNullable<ProfileUpdate["tradingStyle"]>;
type Timezone = NonNullable<ProfileUpdate["timezone"]>;
/** The options in the order the form shows them; `satisfies` keeps them within the API's enums. */
export const TRADING_STYLES = [
  "Scalping",
  "Day Trading",
  "Swing Trading",
  "Position Trading",
  "Algorithmic Trading",
] as const satisfies readonly TradingStyle[];
export const TIMEZONES = ["UTC-5", "UTC-6", "UTC-7", "UTC-8", "UTC+0", "UTC+1", "UTC+8"] as const satisfies readonly Timezone[];

/** Years of experience from a form field: a number, or 0 when it is not numeric (spec). */
export function parseYears(value: string): number {
  const number = Number.parseFloat(value);
  return Number.isFinite(number) ? Math.trunc(number) : 0;
}

/**
 * A select's value for the API: null when cleared. Any other value is sent as it is (a profile may hold
 * an older value that is not an option any more): the server answers those with its own message.
 */
export function tradingStyleOf(value: string): TradingStyle | null {
  return (value || null) as TradingStyle | null;
}

export function timezoneOf(value: string): Timezone | null {
  return (value || null) as Timezone | null;
}
