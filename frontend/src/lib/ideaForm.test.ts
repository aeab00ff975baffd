import { describe, expect, it } from "vitest";
import { EMPTY_IDEA_FORM, missingIdeaFields, pairPlaceholder } from "./ideaForm";

describe("missingIdeaFields", () => {
  it("lists every blank required field", () => {
    expect(missingIdeaFields(EMPTY_IDEA_FORM)).toEqual(["pair", "timeFrame", "entry1", "invalidationLevel", "exit1"]);
  });

  it("treats whitespace as blank and ignores optional fields", () => {
    const values = { ...EMPTY_IDEA_FORM, pair: "BTC/USDT", timeFrame: "4H", entry1: " ", invalidationLevel: "1", exit1: "2" };
    expect(missingIdeaFields(values)).toEqual(["entry1"]);
    expect(missingIdeaFields({ ...values, entry1: "3" })).toEqual([]);
  });
});

describe("pairPlaceholder", () => {
  it("follows the market", () => {
    expect(pairPlaceholder("Crypto")).toBe("BTC/USDT");
    expect(pairPlaceholder("Forex")).toBe("EUR/USD");
  });
});
