import { describe, expect, it } from "vitest";
import { chartSource, differsFromEducator, priceCheckText, type Receipt, type Verification } from "./priceCheck";

const receipt = (step: Receipt["step"]): Receipt => ({
  step,
  at: "2026-11-26T10:00:00Z",
  granularity: "1m",
  candleTime: "2026-11-26T10:00:00Z",
  open: "1",
  high: "2",
  low: "0.5",
  close: "1.5",
  side: null,
  price: "1",
});

const base: Verification = {
  state: "waiting",
  outcome: null,
  rMultiple: null,
  settlementPrice: null,
  triggeredAt: null,
  settledAt: null,
  maeR: null,
  mfeR: null,
  feed: "binance",
  symbol: "BTCUSDT",
  reason: null,
  detail: null,
  receipts: [],
  agrees: null,
};

describe("priceCheckText", () => {
  it("says what the price check knows", () => {
    expect(priceCheckText(base)).toBe("Price check: waiting for entry");
    expect(priceCheckText({ ...base, state: "off" })).toBe("Price check: off");
    expect(priceCheckText({ ...base, state: "triggered", receipts: [receipt("triggered")] })).toBe("Price check: entry triggered");
    expect(priceCheckText({ ...base, state: "triggered", receipts: [receipt("triggered"), receipt("exit1")] })).toBe(
      "Price check: entry triggered, Exit 1 reached",
    );
    expect(priceCheckText({ ...base, state: "settled", outcome: "exit2", rMultiple: 2 })).toBe("Price check: Exit 2 reached +2.00 R");
    expect(priceCheckText({ ...base, state: "settled", outcome: "invalidation", rMultiple: -1.5 })).toBe(
      "Price check: Stopped at invalidation −1.50 R",
    );
    expect(priceCheckText({ ...base, state: "settled", outcome: "not_triggered" })).toBe("Price check: Not triggered");
    expect(priceCheckText({ ...base, state: "unverifiable", reason: "not available for SPX500 yet" })).toBe(
      "Price check: not available for SPX500 yet",
    );
    // A reason stored before reasons were written for members still reads as a sentence.
    expect(priceCheckText({ ...base, state: "unverifiable", reason: "no forex feed configured" })).toBe(
      "Price check: not verified - no forex feed configured",
    );
  });

  it("says which hour of Dukascopy's data an open forex idea waits for", () => {
    const at = new Date("2026-11-29T14:37:00Z");
    const fx: Verification = { ...base, feed: "dukascopy", symbol: "EURUSD" };
    expect(priceCheckText(fx, at)).toBe("Price check: waiting for the 14:00 UTC data");
    expect(priceCheckText({ ...fx, state: "triggered", receipts: [receipt("triggered"), receipt("exit1")] }, at)).toBe(
      "Price check: entry triggered, Exit 1 reached; waiting for the 14:00 UTC data",
    );
    expect(priceCheckText({ ...fx, state: "settled", outcome: "exit1", rMultiple: 1 }, at)).toBe("Price check: Exit 1 reached +1.00 R");
  });

  it("marks a verdict that differs from the educator's", () => {
    expect(differsFromEducator({ ...base, agrees: false })).toBe(true);
    expect(differsFromEducator({ ...base, agrees: true })).toBe(false);
    expect(differsFromEducator(null)).toBe(false);
  });
});

describe("chartSource", () => {
  it("names the source actually used and the side drawn", () => {
    expect(chartSource({ feed: "dukascopy", side: "bid" })).toBe("Prices from Dukascopy (bid)");
    expect(chartSource({ feed: "binance", side: null })).toBe("Prices from Binance");
  });
});
