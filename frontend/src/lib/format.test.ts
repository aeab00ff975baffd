import { describe, expect, it } from "vitest";
import {
  MINUS,
  decimalsOf,
  formatComputedPrice,
  formatLevel,
  formatMidPrice,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPrice,
  formatR,
  formatRate,
  formatSigned,
  formatUnits,
  pairPrecision,
} from "./format";

// What the screens show, with the no-break spaces written as plain ones.
const plain = (text: string) => text.replace(/\u00a0/g, " ");

describe("formatR", () => {
  it("always signs, with a real minus sign and two decimals", () => {
    expect(plain(formatR(2.4))).toBe("+2.40 R");
    expect(plain(formatR(-1))).toBe("−1.00 R");
    expect(formatR(-1).startsWith(MINUS)).toBe(true);
    expect(formatR(-1)).not.toContain("-");
    expect(plain(formatR(0))).toBe("0.00 R");
    expect(plain(formatR(1234.5))).toBe("+1,234.50 R");
  });

  it("never writes a signed zero", () => {
    expect(plain(formatR(-0.001))).toBe("0.00 R");
    expect(plain(formatR(0.004))).toBe("0.00 R");
  });

  it("is a dash when unknown", () => {
    expect(formatR(null)).toBe("—");
    expect(formatR(undefined)).toBe("—");
    expect(formatR(Number.NaN)).toBe("—");
  });
});

describe("percentages", () => {
  it("write one style: number, space, %", () => {
    expect(plain(formatPercent(5))).toBe("5 %");
    expect(plain(formatPercent(62.55, 1))).toBe("62.6 %");
    expect(plain(formatPercent(0.25, 2))).toBe("0.25 %");
    expect(plain(formatRate(0.625))).toBe("62.5 %");
    expect(plain(formatRate(1))).toBe("100 %");
    expect(formatRate(null)).toBe("—");
  });
});

describe("prices", () => {
  it("take the pair's precision from the levels as written", () => {
    expect(decimalsOf("1.0850")).toBe(4);
    expect(decimalsOf("64,200")).toBe(0);
    expect(decimalsOf("abc")).toBeNull();
    expect(pairPrecision(["1.0850", "1.08", null, "1.1"])).toBe(4);
    expect(pairPrecision(["64200", "66543.5"])).toBe(1);
  });

  it("always carry thousands separators", () => {
    expect(formatPrice(64200, 0)).toBe("64,200");
    expect(formatPrice(66543, 0)).toBe("66,543");
    expect(formatPrice(1.085, 4)).toBe("1.0850");
    expect(formatLevel("66543", 0)).toBe("66,543");
    expect(formatLevel("64,200", 0)).toBe("64,200");
    expect(formatLevel("1.085", 4)).toBe("1.0850");
    expect(formatLevel("1.08505", 4)).toBe("1.08505");
    expect(formatLevel("market", 4)).toBe("market");
    expect(formatMidPrice((1.085 + 1.083) / 2, 4)).toBe("1.0840");
    expect(formatMidPrice((1.085 + 1.0831) / 2, 4)).toBe("1.08405");
    expect(formatComputedPrice(64123.456)).toBe("64,123.46");
    expect(formatComputedPrice(1.234567)).toBe("1.23457");
  });
});

describe("money", () => {
  it("signs a profit or a loss and names the currency", () => {
    expect(plain(formatMoney(1250, "USD", { signed: true }))).toBe("+1,250.00 USD");
    expect(plain(formatMoney(-50, "USD", { signed: true }))).toBe("−50.00 USD");
    expect(plain(formatMoney(0, "EUR", { signed: true }))).toBe("0.00 EUR");
    expect(plain(formatMoney(10000, "USD"))).toBe("10,000.00 USD");
    expect(formatMoney(null, "USD")).toBe("—");
  });

  it("writes plain numbers and units with separators", () => {
    expect(formatNumber(-1234.5)).toBe("−1,234.50");
    expect(formatSigned(0.5)).toBe("+0.50");
    expect(formatUnits(20000)).toBe("20,000");
    expect(formatUnits(0.0333333)).toBe("0.033333");
  });
});
