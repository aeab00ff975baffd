import { describe, expect, it } from "vitest";
import {
  deriveEvents,
  eventsFromReceipts,
  movesAt,
  planReplay,
  replayLevels,
  replayStatus,
  replayWindow,
  stepTo,
  tickMs,
  type ReplayCandle,
} from "./replay";

const BASE = Date.parse("2026-12-01T14:00:00Z") / 1000;

function candles(rows: Array<[number, number, number, number]>): ReplayCandle[] {
  return rows.map(([open, high, low, close], i) => ({ time: BASE + 60 * i, open, high, low, close }));
}

// A BUY: entry 1.1000, stop 1.0900 (1 R = 0.0100), exits 1.1200 and 1.1300.
const buy = replayLevels({
  orderType: "BUY", entry1: "1.1000", entry2: null, invalidationLevel: "1.0900", exit1: "1.1200", exit2: "1.1300", exit3: null,
})!;
const buyPath = candles([
  [1.095, 1.098, 1.094, 1.097], // 0: waiting
  [1.097, 1.101, 1.096, 1.1005], // 1: triggers at 1.1000
  [1.1005, 1.108, 1.095, 1.106], // 2: open through it: +0.80 R high, -0.50 R low
  [1.106, 1.125, 1.104, 1.124], // 3: exit 1 (+2.00 R), and on to 1.1250 (+2.50 R)
  [1.124, 1.126, 1.089, 1.09], // 4: the stop (-1.00 R at its level, not the low)
  [1.09, 1.2, 1.0, 1.1], // 5: after settlement, counts for nothing
]);

// A SELL with two entries: planned entry (100 + 104) / 2 = 102, stop 110 (1 R = 8), one exit at 86.
const sell = replayLevels({
  orderType: "SELL", entry1: "100", entry2: "104", invalidationLevel: "110", exit1: "86", exit2: null, exit3: null,
})!;
const sellPath = candles([
  [95, 98, 94, 97], // 0: below the entry, not yet touched
  [97, 101, 96, 99], // 1: triggers at entry 1 (100)
  [99, 106, 90, 92], // 2: worst (102 - 106) / 8 = -0.50 R, best (102 - 90) / 8 = +1.50 R
  [92, 93, 85, 86], // 3: exit 1 at 86: (102 - 86) / 8 = +2.00 R, settled
  [86, 120, 80, 100], // 4: after settlement
]);

describe("replayLevels", () => {
  it("measures R from the average of entry 1 and entry 2 and triggers on entry 1", () => {
    expect(sell).toEqual({ buy: false, trigger: 100, entry: 102, stop: 110, exits: [86] });
    expect(buy.exits).toEqual([1.12, 1.13]);
  });

  it("is null when a level is not a number or the risk is zero", () => {
    expect(replayLevels({ orderType: "BUY", entry1: "x", entry2: null, invalidationLevel: "1", exit1: "2", exit2: null, exit3: null })).toBeNull();
    expect(replayLevels({ orderType: "BUY", entry1: "1", entry2: null, invalidationLevel: "1", exit1: "2", exit2: null, exit3: null })).toBeNull();
  });
});

describe("deriveEvents", () => {
  it("places a BUY's trigger, exit and stop at their candles with their fills", () => {
    expect(deriveEvents(buyPath, buy)).toEqual([
      { index: 1, step: "triggered", price: 1.1 },
      { index: 3, step: "exit1", price: 1.12 },
      { index: 4, step: "stop", price: 1.09 },
    ]);
  });

  it("places a SELL's trigger and its last exit, which settles it", () => {
    expect(deriveEvents(sellPath, sell)).toEqual([
      { index: 1, step: "triggered", price: 100 },
      { index: 3, step: "exit1", price: 86 },
    ]);
  });

  it("has no steps when the stop trades before the entry (not triggered)", () => {
    const path = candles([
      [1.095, 1.096, 1.088, 1.089],
      [1.089, 1.105, 1.085, 1.1],
    ]);
    expect(deriveEvents(path, buy)).toEqual([]);
  });

  it("reads a candle through the stop and an exit as the stop, unless it opened past the exit", () => {
    const both = candles([
      [1.097, 1.101, 1.096, 1.1005],
      [1.1, 1.121, 1.089, 1.1],
    ]);
    expect(deriveEvents(both, buy).map((e) => e.step)).toEqual(["triggered", "stop"]);
    const gapped = candles([
      [1.097, 1.101, 1.096, 1.1005],
      [1.122, 1.123, 1.089, 1.09],
    ]);
    expect(deriveEvents(gapped, buy)).toEqual([
      { index: 0, step: "triggered", price: 1.1 },
      { index: 1, step: "exit1", price: 1.122 },
      { index: 1, step: "stop", price: 1.09 },
    ]);
  });

  it("triggers at the open when the price gapped over the entry", () => {
    const path = candles([[1.102, 1.104, 1.101, 1.103]]);
    expect(deriveEvents(path, buy, 1.098)[0]).toEqual({ index: 0, step: "triggered", price: 1.102 });
  });
});

describe("movesAt", () => {
  const buyEvents = deriveEvents(buyPath, buy);
  const sellEvents = deriveEvents(sellPath, sell);

  it("follows a BUY's best and worst moves candle by candle", () => {
    expect(movesAt(buyPath, buyEvents, buy, 0)).toEqual({ mfe: null, mae: null });
    expect(movesAt(buyPath, buyEvents, buy, 1)).toEqual({ mfe: 0, mae: 0 }); // the trigger candle: no evidence yet
    const two = movesAt(buyPath, buyEvents, buy, 2);
    expect(two.mfe).toBeCloseTo(0.8, 9);
    expect(two.mae).toBeCloseTo(-0.5, 9);
    const three = movesAt(buyPath, buyEvents, buy, 3);
    expect(three.mfe).toBeCloseTo(2.5, 9);
    expect(three.mae).toBeCloseTo(-0.5, 9);
    const four = movesAt(buyPath, buyEvents, buy, 4);
    expect(four.mfe).toBeCloseTo(2.5, 9);
    expect(four.mae).toBeCloseTo(-1, 9);
    expect(movesAt(buyPath, buyEvents, buy, 5)).toEqual(four); // settled: the later candle counts for nothing
  });

  it("follows a SELL's moves from the planned entry", () => {
    const two = movesAt(sellPath, sellEvents, sell, 2);
    expect(two.mfe).toBeCloseTo(1.5, 9);
    expect(two.mae).toBeCloseTo(-0.5, 9);
    const settled = movesAt(sellPath, sellEvents, sell, 4);
    expect(settled.mfe).toBeCloseTo(2, 9);
    expect(settled.mae).toBeCloseTo(-0.5, 9);
  });

  it("shows the price check's own figures once the replay reaches the settlement", () => {
    const final = { mfe: 2.1, mae: -0.6 };
    expect(movesAt(sellPath, sellEvents, sell, 2, final).mfe).toBeCloseTo(1.5, 9);
    expect(movesAt(sellPath, sellEvents, sell, 3, final)).toEqual(final);
    expect(movesAt(sellPath, sellEvents, sell, 4, final)).toEqual(final);
  });
});

describe("eventsFromReceipts", () => {
  it("puts each receipt on the chart candle that holds its proving candle", () => {
    const receipts = [
      { step: "triggered" as const, candleTime: new Date((BASE + 60 + 17) * 1000).toISOString(), price: "1.1000" },
      { step: "exit1" as const, candleTime: new Date((BASE + 180) * 1000).toISOString(), price: "1.1200" },
      { step: "stop" as const, candleTime: new Date((BASE + 4 * 60 + 59) * 1000).toISOString(), price: "1.0900" },
    ];
    expect(eventsFromReceipts(buyPath, receipts)).toEqual([
      { index: 1, step: "triggered", price: 1.1 },
      { index: 3, step: "exit1", price: 1.12 },
      { index: 4, step: "stop", price: 1.09 },
    ]);
  });
});

describe("replayWindow", () => {
  const hour = Array.from({ length: 70 }, (_, i) => ({ time: BASE - 3600 + 60 * i, open: 1, high: 1, low: 1, close: 1 }));

  it("runs from the candle holding the publishing to the one holding the settlement", () => {
    expect(replayWindow(hour, BASE + 30, BASE + 300)).toEqual({ start: 60, end: 65 });
  });

  it("runs to the last candle while the idea is open", () => {
    expect(replayWindow(hour, BASE + 30, null)).toEqual({ start: 60, end: 69 });
  });
});

describe("stepping", () => {
  it("keeps the position between the first and the last candle", () => {
    expect(stepTo(1, -1, 10)).toBe(1);
    expect(stepTo(5, 1, 10)).toBe(6);
    expect(stepTo(10, 1, 10)).toBe(10);
    expect(stepTo(3, 0, 0)).toBe(0);
  });

  it("draws one candle a second at 1× and sixty at 60×", () => {
    expect(tickMs(1)).toBe(1000);
    expect(tickMs(60)).toBe(17);
  });

  it("says which candle is shown and when it opened", () => {
    expect(replayStatus(2, buyPath)).toBe("Candle 2 of 6 · 14:01 UTC");
    const days = [buyPath[0]!, { ...buyPath[1]!, time: BASE + 2 * 86_400 }];
    expect(replayStatus(2, days)).toBe("Candle 2 of 2 · Dec 3, 14:00 UTC");
  });
});

describe("planReplay", () => {
  const levels = { orderType: "BUY" as const, entry1: "1.1000", entry2: null, invalidationLevel: "1.0900", exit1: "1.1200", exit2: "1.1300", exit3: null };
  // Two candles of the hour before publishing, then the BUY's path; published 14:00:30, settled by the stop at 14:04.
  const before = [
    { time: BASE - 120, open: 1.095, high: 1.096, low: 1.094, close: 1.095 },
    { time: BASE - 60, open: 1.095, high: 1.096, low: 1.094, close: 1.095 },
  ];
  const all = [...before, ...buyPath];
  const at = (seconds: number) => new Date(seconds * 1000).toISOString();

  it("uses the price check's receipts and figures once it has checked the idea", () => {
    const plan = planReplay(
      {
        ...levels,
        createdAt: at(BASE + 30),
        verification: {
          state: "settled", settledAt: at(BASE + 4 * 60), mfeR: 2.6, maeR: -1,
          receipts: [
            { step: "triggered", candleTime: at(BASE + 60 + 5), price: "1.1000" },
            { step: "stop", candleTime: at(BASE + 4 * 60), price: "1.0900" },
          ],
        },
      },
      all,
    )!;
    expect(plan.offset).toBe(2); // from the candle published in (14:00) to the one settled in (14:04)
    expect(plan.replayed.map((c) => c.time)).toEqual([0, 1, 2, 3, 4].map((m) => BASE + 60 * m));
    expect(plan.events).toEqual([
      { index: 1, step: "triggered", price: 1.1 },
      { index: 4, step: "stop", price: 1.09 },
    ]);
    expect(plan.fromReceipts).toBe(true);
    expect(plan.final).toEqual({ mfe: 2.6, mae: -1 });
  });

  it("derives the steps from the candles when the price check is off", () => {
    const plan = planReplay({ ...levels, createdAt: at(BASE), verification: null }, all)!;
    expect(plan.offset).toBe(2);
    expect(plan.replayed).toHaveLength(6);
    expect(plan.fromReceipts).toBe(false);
    expect(plan.events.map((e) => [e.index, e.step])).toEqual([[1, "triggered"], [3, "exit1"], [4, "stop"]]);
    expect(plan.final).toBeNull();
  });

  it("has nothing to replay without candles after publishing", () => {
    expect(planReplay({ ...levels, createdAt: at(BASE + 3600), verification: null }, all)).toBeNull();
  });
});
