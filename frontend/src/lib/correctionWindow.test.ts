import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { contradictionQuestion, correctableUntilText } from "./correctionWindow";
import { possibleChanges } from "./ideaStatus";

type Verification = Schemas["Verification"];

const check = (over: Partial<Verification>): Verification => ({
  agrees: null, detail: null, feed: "binance", maeR: null, mfeR: null, outcome: null, rMultiple: null, reason: null,
  receipts: [], settledAt: null, settlementPrice: null, state: "waiting", symbol: "BTCUSDT", triggeredAt: null, ...over,
});
const step = (s: "triggered" | "exit1" | "exit2" | "exit3" | "stop") =>
  ({ step: s, price: "1", at: "2026-11-29T10:00:00Z" }) as unknown as Schemas["ReceiptOut"];

describe("correctableUntilText", () => {
  const now = new Date("2026-11-29T14:19:10Z");
  it("says the time in UTC, the day in words and the minutes left", () => {
    expect(correctableUntilText("2026-11-29T14:32:00Z", now)).toBe("until 14:32 UTC today (13 min)");
    expect(correctableUntilText("2026-11-30T00:05:00Z", new Date("2026-11-29T23:55:00Z"))).toBe("until 00:05 UTC tomorrow (10 min)");
    expect(correctableUntilText("2026-12-02T09:00:00Z", now)).toBe("until 09:00 UTC on 2 Dec (66 h 41 min)");
    expect(correctableUntilText("2026-11-29T14:00:00Z", now)).toBe("until 14:00 UTC today (now)");
  });
});

describe("possibleChanges", () => {
  it("never offers the status the idea already has", () => {
    expect(possibleChanges("active")).toEqual(["successful", "unsuccessful", "invalidated"]);
    expect(possibleChanges("pending")).toEqual(["successful", "unsuccessful", "invalidated"]);
    expect(possibleChanges("successful")).toEqual(["unsuccessful", "pending"]);
    expect(possibleChanges("unsuccessful")).toEqual(["successful", "pending"]);
    expect(possibleChanges("invalidated")).toEqual(["successful", "unsuccessful", "pending"]);
  });
});

describe("contradictionQuestion", () => {
  it("asks when the entry never triggered", () => {
    expect(contradictionQuestion(check({ state: "waiting" }), "exit1")).toBe("The price check says the entry never triggered. Record Exit 1 anyway?");
    expect(contradictionQuestion(check({ state: "waiting" }), "manual", "1.0921")).toBe(
      "The price check says the entry never triggered. Record a close at 1.0921 anyway?",
    );
    expect(contradictionQuestion(check({ state: "waiting" }), "not_triggered")).toBeNull();
  });

  it("asks about a level the open trade has not reached", () => {
    const open = check({ state: "triggered", receipts: [step("triggered"), step("exit1")] });
    expect(contradictionQuestion(open, "exit1")).toBeNull();
    expect(contradictionQuestion(open, "exit2")).toBe("The price check says Exit 2 has not been reached. Record Exit 2 anyway?");
    expect(contradictionQuestion(open, "invalidation")).toBe("The price check says the invalidation level has not traded. Record the stop anyway?");
  });

  it("asks when a settled check found another outcome, and not when it agrees", () => {
    expect(contradictionQuestion(check({ state: "settled", outcome: "invalidation" }), "exit1")).toBe(
      "The price check says the invalidation level traded first. Record Exit 1 anyway?",
    );
    expect(contradictionQuestion(check({ state: "settled", outcome: "exit1" }), "exit1")).toBeNull();
    expect(contradictionQuestion(check({ state: "settled", outcome: "ambiguous" }), "invalidation")).toBeNull();
  });

  it("says nothing without a check", () => {
    expect(contradictionQuestion(null, "exit1")).toBeNull();
    expect(contradictionQuestion(check({ state: "off" }), "exit1")).toBeNull();
    expect(contradictionQuestion(check({ state: "unverifiable" }), "exit1")).toBeNull();
  });
});
