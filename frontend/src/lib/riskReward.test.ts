import { describe, expect, it } from "vitest";
import { formatRewardToRisk, parseLevel, plannedEntry, rewardToRisk } from "./riskReward";

const lv = (entry1: string, invalidationLevel: string | null, exit1: string, entry2: string | null = null) => ({ entry1, entry2, invalidationLevel, exit1 });

describe("parseLevel", () => {
  it.each([
    ["1.0850", 1.085],
    [" 42,000 ", 42000],
    ["7", 7],
    [".5", 0.5],
    ["-3", -3],
  ])("%s -> %s", (input, expected) => expect(parseLevel(input)).toBe(expected));

  it.each([[""], ["abc"], ["1.2.3"], ["1.08 - 1.09"], [null], [undefined]])("%s -> null", (input) => {
    expect(parseLevel(input)).toBeNull();
  });
});

describe("rewardToRisk", () => {
  it("computes a buy idea", () => {
    expect(rewardToRisk(lv("100", "90", "125"))).toBe(2.5);
  });

  it("computes a sell idea", () => {
    expect(rewardToRisk(lv("1.1000", "1.1050", "1.0900"))).toBeCloseTo(2);
  });

  it("is null when a level is not numeric or the risk is zero", () => {
    expect(rewardToRisk(lv("market", "90", "125"))).toBeNull();
    expect(rewardToRisk(lv("100", "", "125"))).toBeNull();
    expect(rewardToRisk(lv("100", "100", "125"))).toBeNull();
  });
});

describe("formatRewardToRisk", () => {
  it("formats with at most two decimals", () => {
    expect(formatRewardToRisk(lv("100", "90", "125"))).toBe("R:R 1:2.5");
    expect(formatRewardToRisk(lv("100", "97", "110"))).toBe("R:R 1:3.33");
    expect(formatRewardToRisk(lv("100", "90", "120"))).toBe("R:R 1:2");
  });

  it("is null when the ratio is unknown", () => {
    expect(formatRewardToRisk(lv("100", null, "120"))).toBeNull();
  });
});

describe("one R rule for several entries", () => {
  it("measures from the average of entry 1 and entry 2", () => {
    expect(plannedEntry({ entry1: "100", entry2: "90" })).toBe(95);
    expect(plannedEntry({ entry1: "100", entry2: null })).toBe(100);
    expect(plannedEntry({ entry1: "100", entry2: "soon" })).toBeNull();
  });

  it("gives the badge the same ratio as the position-size table's R at exit 1", () => {
    // Entry 1 alone would say 1:1.09 (issue #39); from the average entry it is the table's +1.56 R.
    const levels = lv("1.0850", "1.0795", "1.0910", "1.0830");
    expect(formatRewardToRisk(levels)).toBe("R:R 1:1.56");
    expect(formatRewardToRisk(lv("1.0850", "1.0795", "1.0910"))).toBe("R:R 1:1.09");
  });
});
