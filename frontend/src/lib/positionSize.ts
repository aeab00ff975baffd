import type { Schemas } from "../api/client";
import { formatPercent, ideaPrecision } from "./format";
import { parseLevel, plannedEntry } from "./riskReward";

type IdeaOut = Schemas["IdeaOut"];

/**
 * Position sizing with the customer's own numbers: pure functions, no React, no I/O.
 *
 * risk amount = accountSize × riskPercent / 100; stop distance = |entry − invalidation| where entry is the planned
 * entry (entry 1, or the average of entries 1 and 2 when both are given: the one R rule, `plannedEntry`); units (of the base currency) = risk
 * amount ÷ stop distance, converted from the quote currency to the account currency: none when they are
 * the same (USDT/USDC/BUSD count as USD), × entry when the base currency is the account currency
 * (USD/JPY for a USD account), otherwise ÷ the quote→account rate (the last price check's, or typed).
 *
 * Leverage: a Leverage idea's position needs margin = notional ÷ leverage; an Exchange (spot) idea's is paid in full
 * (leverage 1). When the notional is more than the account × that leverage, the account cannot open it.
 */

export type SizingAccount = {
  accountSize: number;
  accountCurrency: string;
  riskPercent: number;
  leverage: number;
};

export type SizingIdea = {
  pair: string;
  orderType: IdeaOut["orderType"];
  ideaType: IdeaOut["ideaType"];
  market: IdeaOut["market"];
  entry1: string;
  entry2: string | null;
  invalidationLevel: string;
  exit1: string;
  exit2: string | null;
  exit3: string | null;
};

export type Conversion = "none" | "entry" | "rate";

export type Reward = { label: string; level: string; price: number; amount: number; r: number };

export type Sizing = {
  ok: true;
  base: string;
  quote: string;
  entry: number;
  /** The entry is the average of entry 1 and entry 2 (the R rule for several entries). */
  averagedEntry: boolean;
  /** The pair's precision (decimals of its levels as written). */
  precision: number;
  stop: number;
  riskAmount: number;
  stopDistance: number;
  units: number;
  conversion: Conversion;
  /** Value of the position in account currency. */
  notional: number;
  /** Currency pairs only (not metals or indices): standard lots of 100,000 units and pips. */
  lots: number | null;
  pips: number | null;
  /** The leverage the position is opened with: the account's for Leverage ideas, 1 for Exchange (spot) ideas. */
  leverage: number;
  /** Account currency the position ties up: notional ÷ leverage. */
  margin: number;
  /** The notional is more than the account × leverage allows. */
  exceedsAccount: boolean;
  /** Crypto Leverage ideas only (isolated margin, no fees). */
  liquidationPrice: number | null;
  liquidationBeforeStop: boolean;
  rewards: Reward[];
};

export type SizingProblem = { ok: false; reason: "levels" | "pair" | "rate"; message: string };

export const CANNOT_COMPUTE = "Can't compute a position size: this idea's entry or invalidation level is not a number.";
export const UNKNOWN_PAIR =
  "Can't size this instrument: it is not clear which currency it is priced in. Use the contract size your broker gives for it.";
/** Risk per trade above this is allowed but warned about; above MAX_RISK_PERCENT it is refused (the server's limit too). */
export const HIGH_RISK_PERCENT = 2;
export const MAX_RISK_PERCENT = 10;
export const RISK_LIMIT_MESSAGE = "Risk per trade must be from 0.01 % to 10 % of your account (10 % is the limit)";

/** "High risk: 5 % of your account on one trade", or null at 2 % and below. */
export function highRiskWarning(riskPercent: number): string | null {
  return Number.isFinite(riskPercent) && riskPercent > HIGH_RISK_PERCENT ? `High risk: ${formatPercent(riskPercent, 2)} of your account on one trade` : null;
}

/**
 * Indices have no currency in their name: the currency each is priced in (one unit moves one of it per point).
 * Metals (XAU/USD) and currency pairs name theirs.
 */
const INDEX_CURRENCY: Record<string, string> = {
  US30: "USD", DJ30: "USD", DJI: "USD", SPX: "USD", SPX500: "USD", SP500: "USD", US500: "USD", NAS100: "USD", US100: "USD", NDX: "USD", US2000: "USD",
  GER40: "EUR", GER30: "EUR", DE40: "EUR", DAX: "EUR", FRA40: "EUR", EU50: "EUR", STOXX50: "EUR", ESP35: "EUR",
  UK100: "GBP", FTSE: "GBP", JP225: "JPY", NIK225: "JPY", JPN225: "JPY", AUS200: "AUD", HK50: "HKD",
};
export const NEEDS_RATE = "Enter the conversion rate to compute the size.";

const USD_LIKE = new Set(["USD", "USDT", "USDC", "BUSD"]);
/** Currencies whose pairs trade in lots and pips (metals such as XAU and indices do not). */
const FIAT = new Set(["USD", "EUR", "GBP", "JPY", "AUD", "NZD", "CAD", "CHF", "SEK", "NOK", "DKK", "SGD", "HKD", "MXN", "ZAR", "TRY", "PLN", "CNH"]);
const QUOTES = ["USDT", "USDC", "BUSD", "USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD", "BTC", "ETH"];

/** "USDT" and friends are dollars for sizing purposes. */
export function sameCurrency(a: string, b: string): boolean {
  const norm = (c: string) => (USD_LIKE.has(c) ? "USD" : c);
  return norm(a.toUpperCase()) === norm(b.toUpperCase());
}

/** Base and quote of "EUR/USD", "BTC-USDT", "btcusdt", "EURUSD"; null when they cannot be told apart. */
export function splitPair(pair: string): { base: string; quote: string } | null {
  const text = pair.trim().toUpperCase();
  const parts = text.split(/[\s/_:-]+/).filter(Boolean);
  if (parts.length === 2 && /^[A-Z0-9]+$/.test(parts[0]!) && /^[A-Z0-9]+$/.test(parts[1]!)) {
    return { base: parts[0]!, quote: parts[1]! };
  }
  if (parts.length !== 1 || !/^[A-Z0-9]+$/.test(text)) return null;
  const index = INDEX_CURRENCY[text];
  if (index) return { base: text, quote: index };
  const quote = QUOTES.find((q) => text.endsWith(q) && text.length > q.length);
  return quote ? { base: text.slice(0, -quote.length), quote } : null;
}

/** The currency the customer must give a rate for (quote → account), or null when none is needed. */
export function rateNeeded(pair: string, accountCurrency: string): string | null {
  const split = splitPair(pair);
  if (!split) return null;
  if (sameCurrency(split.quote, accountCurrency) || sameCurrency(split.base, accountCurrency)) return null;
  return split.quote;
}

export function pipSize(quote: string): number {
  return quote.toUpperCase() === "JPY" ? 0.01 : 0.0001;
}

/** The size of a position on `idea` for `account`; `rate` is the quote→account rate when one is needed. */
export function positionSize(idea: SizingIdea, account: SizingAccount, rate?: number | null): Sizing | SizingProblem {
  const entry1 = parseLevel(idea.entry1);
  const entry2 = idea.entry2 ? parseLevel(idea.entry2) : null;
  const stop = parseLevel(idea.invalidationLevel);
  if (entry1 === null || entry1 <= 0 || stop === null || stop <= 0 || (idea.entry2 && entry2 === null)) {
    return { ok: false, reason: "levels", message: CANNOT_COMPUTE };
  }
  const entry = plannedEntry(idea) ?? entry1;
  const stopDistance = Math.abs(entry - stop);
  if (stopDistance === 0) return { ok: false, reason: "levels", message: CANNOT_COMPUTE };
  const split = splitPair(idea.pair);
  if (!split) return { ok: false, reason: "pair", message: UNKNOWN_PAIR };
  const { base, quote } = split;

  const riskAmount = (account.accountSize * account.riskPercent) / 100;
  let conversion: Conversion;
  // How many account-currency units one quote-currency unit is worth.
  let quoteToAccount: number;
  if (sameCurrency(quote, account.accountCurrency)) {
    conversion = "none";
    quoteToAccount = 1;
  } else if (sameCurrency(base, account.accountCurrency)) {
    conversion = "entry";
    quoteToAccount = 1 / entry;
  } else {
    if (!rate || !Number.isFinite(rate) || rate <= 0) return { ok: false, reason: "rate", message: NEEDS_RATE };
    conversion = "rate";
    quoteToAccount = rate;
  }
  const units = riskAmount / (stopDistance * quoteToAccount);
  const notional = units * entry * quoteToAccount;
  const forex = idea.market === "forex" && FIAT.has(base) && FIAT.has(quote);
  const pip = pipSize(quote);
  const leveraged = !forex && idea.ideaType === "Leverage";
  const leverage = idea.ideaType === "Leverage" && Number.isFinite(account.leverage) && account.leverage >= 1 ? account.leverage : 1;
  const margin = notional / leverage;
  const buy = idea.orderType === "BUY";
  const liquidationPrice = leveraged ? entry * (buy ? 1 - 1 / account.leverage : 1 + 1 / account.leverage) : null;
  const liquidationBeforeStop =
    liquidationPrice !== null && account.leverage > 1 && (buy ? liquidationPrice >= stop : liquidationPrice <= stop);

  const rewards: Reward[] = [];
  ([
    ["TP1", idea.exit1],
    ["TP2", idea.exit2],
    ["TP3", idea.exit3],
  ] as const).forEach(([label, level]) => {
    const price = level ? parseLevel(level) : null;
    if (price === null) return;
    const move = buy ? price - entry : entry - price;
    const r = move / stopDistance;
    rewards.push({ label, level: level!.trim(), price, r, amount: r * riskAmount });
  });

  return {
    ok: true,
    base,
    quote,
    entry,
    averagedEntry: entry2 !== null,
    precision: ideaPrecision(idea),
    stop,
    riskAmount,
    stopDistance,
    units,
    conversion,
    notional,
    lots: forex ? units / 100_000 : null,
    pips: forex ? stopDistance / pip : null,
    leverage,
    margin,
    exceedsAccount: notional > account.accountSize * leverage * (1 + 1e-9),
    liquidationPrice,
    liquidationBeforeStop,
    rewards,
  };
}

/** One block a trader can paste into a broker ticket: "EUR/USD BUY | Entry 1.0850 / 1.0830 | SL 1.0795 | TP1 1.0910 TP2 1.0960". */
export function levelsBlock(idea: Pick<SizingIdea, "pair" | "orderType" | "entry1" | "entry2" | "invalidationLevel" | "exit1" | "exit2" | "exit3">): string {
  const entries = [idea.entry1, idea.entry2].filter(Boolean).join(" / ");
  const exits = [idea.exit1, idea.exit2, idea.exit3]
    .map((level, i) => (level ? `TP${i + 1} ${level}` : null))
    .filter(Boolean)
    .join(" ");
  return [`${idea.pair} ${idea.orderType}`, `Entry ${entries}`, `SL ${idea.invalidationLevel}`, exits].filter(Boolean).join(" | ");
}

/** A price as typed ("1.0850", "1,234.5"): the number when it is greater than 0, else null. */
export function positivePrice(text: string): number | null {
  const trimmed = text.replace(/,/g, "").trim();
  if (!/^\d*\.?\d+$|^\d+\.$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
}

/**
 * A price as the trader typed it, for the server to keep ("1.0850" stays "1.0850"; thousands commas dropped), or
 * null when it is not a price above 0.
 */
export function priceText(text: string): string | null {
  return positivePrice(text) === null ? null : text.replace(/,/g, "").trim();
}
