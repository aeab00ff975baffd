/**
 * The one place numbers are written for a member (issue #39, decision 0120):
 *
 * - R: always signed, two decimals, a real minus sign: "+1.20 R", "−1.00 R", "0.00 R".
 * - Percentages: a number, a space, "%": "5 %", "62.5 %".
 * - Prices: the pair's precision (the decimals the educator wrote its levels with) and thousands separators:
 *   "64,200", "1.0850", "2,345.10".
 * - Money: two decimals, thousands separators and the currency; a profit or loss is signed: "+1,250.00 USD",
 *   "−50.00 USD".
 *
 * Everything is written in en-US digits so the figures match the levels as educators type them.
 */

/** U+2212, the minus sign (a hyphen is shorter and sits lower). */
export const MINUS = "\u2212";
/** Between a number and its "%", "R" or currency: a plain space (the figures sit in no-wrap spans where it matters). */
const NBSP = " ";
const DASH = "—";

// A formatter built with options costs about a millisecond on a phone: each one is made once and kept.
const formatters = new Map<string, Intl.NumberFormat>();

function numberFormat(minimumFractionDigits: number, maximumFractionDigits: number, grouping = true): Intl.NumberFormat {
  const key = `${minimumFractionDigits}-${maximumFractionDigits}-${grouping}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat("en-US", { minimumFractionDigits, maximumFractionDigits, useGrouping: grouping });
    formatters.set(key, format);
  }
  return format;
}

const known = (value: number | null | undefined): value is number => value !== null && value !== undefined && Number.isFinite(value);

/** "1,234.57": a plain number with `decimals` places and thousands separators; a minus sign when negative. */
export function formatNumber(value: number, decimals = 2): string {
  const text = numberFormat(decimals, decimals).format(Math.abs(value));
  return isNegative(value, text) ? `${MINUS}${text}` : text;
}

/** Negative and not shown as zero ("-0.001" at two places is "0.00", unsigned). */
function isNegative(value: number, shown: string): boolean {
  return value < 0 && /[1-9]/.test(shown);
}

/** "+1.25", "−0.50", "0.00": a number with its sign (zero has none). */
export function formatSigned(value: number, decimals = 2): string {
  const text = numberFormat(decimals, decimals).format(Math.abs(value));
  if (!/[1-9]/.test(text)) return text;
  return `${value > 0 ? "+" : MINUS}${text}`;
}

/** "+2.40 R", "−1.00 R", "0.00 R"; an em dash when unknown. */
export function formatR(r: number | null | undefined): string {
  return known(r) ? `${formatSigned(r)}${NBSP}R` : DASH;
}

/** "5 %", "62.5 %" from a percentage (5 for 5 %); at most `decimals` places, trailing zeros dropped. */
export function formatPercent(percent: number | null | undefined, decimals = 1): string {
  if (!known(percent)) return DASH;
  const text = numberFormat(0, decimals).format(Math.abs(percent));
  return `${isNegative(percent, text) ? MINUS : ""}${text}${NBSP}%`;
}

/** "62.5 %" from a ratio (0.625). */
export function formatRate(ratio: number | null | undefined, decimals = 1): string {
  return known(ratio) ? formatPercent(ratio * 100, decimals) : DASH;
}

/** "1,250.00 USD"; with `signed`, a profit or loss: "+1,250.00 USD", "−50.00 USD". */
export function formatMoney(amount: number | null | undefined, currency: string, { signed = false } = {}): string {
  if (!known(amount)) return DASH;
  const figure = signed ? formatSigned(amount) : formatNumber(amount);
  return currency ? `${figure}${NBSP}${currency}` : figure;
}

/** Decimals of a price as written ("1.0850": 4, "64,200": 0); null when it is not a number. */
export function decimalsOf(text: string | null | undefined): number | null {
  if (typeof text !== "string") return null;
  const clean = text.trim().replace(/,/g, "");
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(clean)) return null;
  return clean.includes(".") ? clean.length - clean.indexOf(".") - 1 : 0;
}

/** The pair's precision: the most decimals among an idea's levels (as the server's price check reads it), at most 8. */
export function pairPrecision(levels: Array<string | null | undefined>): number {
  let most = 0;
  for (const level of levels) most = Math.max(most, decimalsOf(level) ?? 0);
  return Math.min(most, 8);
}

type LevelsOf = { entry1: string; entry2?: string | null; invalidationLevel: string; exit1: string; exit2?: string | null; exit3?: string | null };

/** The pair's precision on an idea (or a journal entry copied from one): the most decimals its levels were written with. */
export function ideaPrecision(idea: LevelsOf): number {
  return pairPrecision([idea.entry1, idea.entry2, idea.invalidationLevel, idea.exit1, idea.exit2, idea.exit3]);
}

/** A price with the pair's precision and thousands separators: "64,200", "1.0850". */
export function formatPrice(value: number | null | undefined, precision: number): string {
  return known(value) ? formatNumber(value, Math.max(0, Math.min(precision, 8))) : DASH;
}

/** A price between two levels (their average): the pair's precision, one decimal more when it needs it (1.08405). */
export function formatMidPrice(value: number, precision: number): string {
  const scaled = value * 10 ** precision;
  return formatPrice(value, Math.abs(scaled - Math.round(scaled)) < 1e-6 ? precision : precision + 1);
}

/**
 * A level as the educator typed it, written the one way prices are ("64200" → "64,200", "1.085" at precision 4 →
 * "1.0850"); text that is not a number is shown as typed.
 */
export function formatLevel(text: string, precision: number): string {
  const decimals = decimalsOf(text);
  if (decimals === null) return text;
  return formatPrice(Number(text.trim().replace(/,/g, "")), Math.max(decimals, precision));
}

/** A price the app computed (no precision known): as many decimals as its size needs. */
export function formatComputedPrice(value: number): string {
  const decimals = Math.abs(value) >= 1000 ? 2 : Math.abs(value) >= 1 ? 5 : 8;
  const text = numberFormat(0, decimals).format(Math.abs(value));
  return isNegative(value, text) ? `${MINUS}${text}` : text;
}

/** Units with as many decimals as small coin amounts need ("20,000", "0.033333"). */
export function formatUnits(units: number): string {
  return formatNumber(units, units >= 100 ? 0 : units >= 1 ? 2 : 6);
}

/** "14:05 UTC": a moment on the record's clock (UTC, decision 0016). */
export function formatUtcTime(moment: Date): string {
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(moment.getUTCHours())}:${two(moment.getUTCMinutes())} UTC`;
}
