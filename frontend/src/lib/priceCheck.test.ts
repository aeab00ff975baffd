import { describe, expect, it } from "vitest";
import { differsFromEducator, priceCheckText, type Receipt, type Verification } from "./priceCheck";

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
      "Price check: Stopped at invalidation -1.50 R",
    );
    expect(priceCheckText({ ...base, state: "settled", outcome: "not_triggered" })).toBe("Price check: Not triggered");
    expect(priceCheckText({ ...base, state: "unverifiable", reason: "no forex feed configured" })).toBe(
      "Price check: not verified - no forex feed configured",
    );
  });

  it("marks a verdict that differs from the educator's", () => {
    expect(differsFromEducator({ ...base, agrees: false })).toBe(true);
    expect(differsFromEducator({ ...base, agrees: true })).toBe(false);
    expect(differsFromEducator(null)).toBe(false);
  });
});
