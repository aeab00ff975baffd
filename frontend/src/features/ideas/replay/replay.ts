/**
 * The replay of an idea (issue #42): its candles from publishing to settlement one by one, the steps of its price
 * check as markers, and its best and worst moves so far (MFE/MAE) in R. Pure functions; the panel draws them.
 *
 * The steps come from the price check's receipts when it has them (the candle that proves each step); without them
 * (a check that is off) they are derived from the chart's candles with the price check's rules (decision 0050,
 * `prices/settlement.py`), read cautiously since the chart has no finer candles to order two levels in one candle.
 * R is the card's one rule (decision 0121): from the planned entry (entry 1, or the average of entry 1 and entry 2)
 * to the invalidation level. Decision 0190 records these choices.
 */
import { formatUtcTime } from "../../../lib/format";
import { parseLevel, plannedEntry } from "../../../lib/riskReward";

export type ReplayCandle = { time: number; open: number; high: number; low: number; close: number };
export type StepName = "triggered" | "exit1" | "exit2" | "exit3" | "stop";
/** One step of the trade at the replay's candle `index` (0 is the candle the idea was published in). */
export type ReplayEvent = { index: number; step: StepName; price: number };
export type ReplayReceipt = { step: StepName; candleTime: string; price: string };

export type ReplayLevels = {
  buy: boolean;
  /** Entry 1: the level whose trade triggers the idea (the price check's trigger). */
  trigger: number;
  /** The planned entry R is measured from. */
  entry: number;
  stop: number;
  exits: number[];
};

export type IdeaLevels = {
  orderType: "BUY" | "SELL";
  entry1: string;
  entry2: string | null;
  invalidationLevel: string;
  exit1: string;
  exit2: string | null;
  exit3: string | null;
};

export type Moves = { mfe: number | null; mae: number | null };

/** The levels as numbers, or null when one the replay needs is not a number or the risk is zero. */
export function replayLevels(idea: IdeaLevels): ReplayLevels | null {
  const trigger = parseLevel(idea.entry1);
  const entry = plannedEntry(idea);
  const stop = parseLevel(idea.invalidationLevel);
  if (trigger === null || entry === null || stop === null || entry === stop) return null;
  const exits: number[] = [];
  for (const text of [idea.exit1, idea.exit2, idea.exit3]) {
    if (text === null || text.trim() === "") break;
    const value = parseLevel(text);
    if (value === null) return null;
    exits.push(value);
  }
  return { buy: idea.orderType === "BUY", trigger, entry, stop, exits };
}

/** A price's distance from the planned entry in R: positive in the trade's favour. */
export function rAt(levels: ReplayLevels, price: number): number {
  const move = levels.buy ? price - levels.entry : levels.entry - price;
  return move / Math.abs(levels.entry - levels.stop);
}

/** The candles' size in seconds (60 when there is only one). */
export function candleSeconds(candles: ReadonlyArray<ReplayCandle>): number {
  return candles.length > 1 ? candles[1]!.time - candles[0]!.time : 60;
}

/**
 * The candles replayed, as indices into `candles` (`end` included): from the candle the idea was published in to
 * the one it settled in (or the last one while it is open). Empty (`end < start`) when no candle follows publishing.
 */
export function replayWindow(candles: ReadonlyArray<ReplayCandle>, publishedAt: number, settledAt: number | null): { start: number; end: number } {
  const size = candleSeconds(candles);
  let start = candles.findIndex((c) => c.time + size > publishedAt);
  if (start < 0) start = candles.length;
  let end = candles.length - 1;
  if (settledAt !== null) {
    while (end >= 0 && candles[end]!.time > settledAt) end -= 1;
  }
  return { start, end };
}

/** The index of the chart candle (within the replayed ones) that holds `seconds`, clamped into the replay. */
function indexOf(replayed: ReadonlyArray<ReplayCandle>, seconds: number): number {
  for (let i = replayed.length - 1; i >= 0; i -= 1) {
    if (replayed[i]!.time <= seconds) return i;
  }
  return 0;
}

/** The price check's receipts as steps of the replay: each at the chart candle that holds its proving candle. */
export function eventsFromReceipts(replayed: ReadonlyArray<ReplayCandle>, receipts: ReadonlyArray<ReplayReceipt>): ReplayEvent[] {
  if (replayed.length === 0) return [];
  return receipts.map((r) => ({
    index: indexOf(replayed, Math.floor(Date.parse(r.candleTime) / 1000)),
    step: r.step,
    price: Number(r.price),
  }));
}

const EXIT_STEPS = ["exit1", "exit2", "exit3"] as const;

/**
 * The steps derived from the replayed candles with the price check's rules, when it has no receipts. A candle that
 * reaches the stop and an exit is read the cautious way (the stop), unless it opened beyond one of them; in the
 * candle that triggered, an exit counts only where the candle closed past it. The stop before the entry: not
 * triggered (no steps). `previousClose` is the close before the first replayed candle (gaps over the entry).
 */
export function deriveEvents(replayed: ReadonlyArray<ReplayCandle>, levels: ReplayLevels, previousClose: number | null = null): ReplayEvent[] {
  const events: ReplayEvent[] = [];
  const up = (favourable: boolean) => levels.buy === favourable;
  const beyond = (c: ReplayCandle, level: number, favourable: boolean): number | null => {
    if (up(favourable)) return c.high >= level ? Math.max(level, c.open) : null;
    return c.low <= level ? Math.min(level, c.open) : null;
  };
  const closedPast = (c: ReplayCandle, level: number) => (levels.buy ? c.close >= level : c.close <= level);
  let reached = 0;
  let triggered = false;
  let previous = previousClose;
  const reach = (index: number, count: number, fill: number) => {
    for (let e = reached; e < count; e += 1) {
      events.push({ index, step: EXIT_STEPS[e]!, price: e === count - 1 ? fill : levels.exits[e]! });
    }
    reached = count;
    return reached === levels.exits.length;
  };
  for (let index = 0; index < replayed.length; index += 1) {
    const c = replayed[index]!;
    const stopFill = beyond(c, levels.stop, false);
    if (!triggered) {
      let fill: number | null = null;
      if (c.low <= levels.trigger && levels.trigger <= c.high) fill = levels.trigger;
      else if (previous !== null && Math.min(previous, c.open) <= levels.trigger && levels.trigger <= Math.max(previous, c.open)) fill = c.open;
      previous = c.close;
      if (fill === null) {
        if (stopFill !== null) return events; // the invalidation traded first: not triggered
        continue;
      }
      triggered = true;
      events.push({ index, step: "triggered", price: fill });
      if (stopFill !== null) {
        events.push({ index, step: "stop", price: stopFill });
        return events;
      }
      let count = reached;
      for (let e = reached; e < levels.exits.length; e += 1) if (closedPast(c, levels.exits[e]!)) count = e + 1;
      if (count > reached && reach(index, count, levels.exits[count - 1]!)) return events;
      continue;
    }
    let count = reached;
    let exitFill: number | null = null;
    for (let e = reached; e < levels.exits.length; e += 1) {
      const f = beyond(c, levels.exits[e]!, true);
      if (f === null) break;
      count = e + 1;
      exitFill = f;
    }
    if (exitFill !== null && (stopFill === null || (exitFill === c.open && stopFill !== c.open))) {
      if (reach(index, count, exitFill)) return events;
    }
    if (stopFill !== null) {
      events.push({ index, step: "stop", price: stopFill });
      return events;
    }
  }
  return events;
}

/**
 * The best (MFE, >= 0) and worst (MAE, <= 0) moves in R from the trigger to the end of the replayed candle
 * `last` (both null before the trigger), with the price check's rules: the trigger candle counts only its exits and
 * stop (its prices before the trigger are no evidence), a candle the trade stayed open through counts its high and
 * low, an exit or the stop counts its fill, and nothing after settlement counts. Once the replay reaches the
 * settlement, `final` (the price check's own figures, from its finer candles) is shown when given.
 */
export function movesAt(
  replayed: ReadonlyArray<ReplayCandle>,
  events: ReadonlyArray<ReplayEvent>,
  levels: ReplayLevels,
  last: number,
  final: Moves | null = null,
): Moves {
  let mfe: number | null = null;
  let mae: number | null = null;
  let done = false;
  for (let index = 0; index <= last && index < replayed.length && !done; index += 1) {
    const here = events.filter((e) => e.index === index);
    const trigger = here.some((e) => e.step === "triggered");
    if (trigger && mfe === null) {
      mfe = 0;
      mae = 0;
    }
    if (mfe === null || mae === null) continue;
    for (const e of here) {
      if (e.step === "stop") {
        mae = Math.min(mae, rAt(levels, e.price));
        done = true;
      } else if (e.step !== "triggered") {
        mfe = Math.max(mfe, rAt(levels, e.price));
        if (e.step === `exit${levels.exits.length}`) done = true;
      }
    }
    if (done && final && final.mfe !== null && final.mae !== null) return final;
    if (!done && !trigger) {
      const c = replayed[index]!;
      const [worst, best] = levels.buy ? [rAt(levels, c.low), rAt(levels, c.high)] : [rAt(levels, c.high), rAt(levels, c.low)];
      mae = Math.min(mae, worst, 0);
      mfe = Math.max(mfe, best, 0);
    }
  }
  return { mfe, mae };
}

/** The position (candles shown, 1 to `count`) after moving `delta` candles, kept within the replay. */
export function stepTo(position: number, delta: number, count: number): number {
  if (count <= 0) return 0;
  return Math.min(count, Math.max(1, position + delta));
}

/** Milliseconds between two candles at a speed: 1× draws one candle a second, 60× sixty. */
export function tickMs(speed: number): number {
  return Math.round(1000 / speed);
}

export const SPEEDS = [1, 5, 15, 60] as const;
export type Speed = (typeof SPEEDS)[number];

/** "14:05 UTC", with the day ("Dec 6, 14:05 UTC") when the replay spans more than a day. */
export function candleClock(seconds: number, withDay: boolean): string {
  const d = new Date(seconds * 1000);
  const time = formatUtcTime(d);
  if (!withDay) return time;
  const month = d.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  return `${month} ${d.getUTCDate()}, ${time}`;
}

/** "Candle 12 of 140 · 14:05 UTC". */
export function replayStatus(position: number, replayed: ReadonlyArray<ReplayCandle>): string {
  if (replayed.length === 0 || position < 1) return "No candles to replay";
  const first = replayed[0]!.time;
  const lastTime = replayed[replayed.length - 1]!.time;
  const candle = replayed[Math.min(position, replayed.length) - 1]!;
  return `Candle ${position} of ${replayed.length} · ${candleClock(candle.time, lastTime - first >= 86_400)}`;
}

export type ReplayPlan = {
  /** Candles before the first replayed one (the hour before publishing): always drawn. */
  offset: number;
  replayed: ReplayCandle[];
  events: ReplayEvent[];
  levels: ReplayLevels;
  /** The price check's own MFE/MAE once settled, shown from the settlement on. */
  final: Moves | null;
  /** Whether the steps are the price check's receipts (or derived from the chart's candles). */
  fromReceipts: boolean;
};

export type ReplayIdea = IdeaLevels & {
  createdAt: string;
  verification: {
    state: string;
    settledAt: string | null;
    mfeR: number | null;
    maeR: number | null;
    receipts: ReadonlyArray<ReplayReceipt>;
  } | null;
};

/** Everything the replay needs from an idea and its candles, or null when there is nothing to replay. */
export function planReplay(idea: ReplayIdea, candles: ReadonlyArray<ReplayCandle>): ReplayPlan | null {
  const levels = replayLevels(idea);
  if (levels === null || candles.length === 0) return null;
  const v = idea.verification;
  const settledAt = v?.settledAt ? Math.floor(Date.parse(v.settledAt) / 1000) : null;
  const { start, end } = replayWindow(candles, Math.floor(Date.parse(idea.createdAt) / 1000), settledAt);
  if (end < start) return null;
  const replayed = candles.slice(start, end + 1);
  const checked = v !== null && (v.state === "waiting" || v.state === "triggered" || v.state === "settled");
  const events = checked
    ? eventsFromReceipts(replayed, v.receipts)
    : deriveEvents(replayed, levels, start > 0 ? candles[start - 1]!.close : null);
  const final = v?.state === "settled" && v.mfeR !== null && v.maeR !== null ? { mfe: v.mfeR, mae: v.maeR } : null;
  return { offset: start, replayed, events, levels, final, fromReceipts: checked };
}
