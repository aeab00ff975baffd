import { describe, expect, it } from "vitest";
import { formatRewardToRisk, parseLevel, rewardToRisk } from "./riskReward";

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
    expect(rewardToRisk("100", "90", "125")).toBe(2.5);
  });

  it("computes a sell idea", () => {
    expect(rewardToRisk("1.1000", "1.1050", "1.0900")).toBeCloseTo(2);
  });

  it("is null when a level is not numeric or the risk is zero", () => {
    expect(rewardToRisk("market", "90", "125")).toBeNull();
    expect(rewardToRisk("100", "", "125")).toBeNull();
    expect(rewardToRisk("100", "100", "125")).toBeNull();
  });
});

describe("formatRewardToRisk", () => {
  it("formats with at most two decimals", () => {
    expect(formatRewardToRisk("100", "90", "125")).toBe("R:R 1:2.5");
    expect(formatRewardToRisk("100", "97", "110")).toBe("R:R 1:3.33");
    expect(formatRewardToRisk("100", "90", "120")).toBe("R:R 1:2");
  });

  it("is null when the ratio is unknown", () => {
    expect(formatRewardToRisk("100", null, "120")).toBeNull();
  });
});
