import { describe, expect, it } from "vitest";
import { formatPrice, parseAmount } from "./money";

describe("formatPrice", () => {
  it("shows the smallest unit as the currency's amount, with the interval", () => {
    expect(formatPrice(2900, "usd", "month")).toMatch(/29\.00 \/ month$/);
    expect(formatPrice(7900, "eur")).toMatch(/79\.00/);
  });
  it("counts currencies without decimals in whole units", () => {
    expect(formatPrice(500, "jpy")).toMatch(/500/);
  });
});

describe("parseAmount", () => {
  it("reads prices with up to two decimals", () => {
    expect(parseAmount("49")).toBe(4900);
    expect(parseAmount("49.5")).toBe(4950);
    expect(parseAmount("49,99")).toBe(4999);
  });
  it("refuses what is not a price", () => {
    expect(parseAmount("")).toBeNull();
    expect(parseAmount("-3")).toBeNull();
    expect(parseAmount("1.234")).toBeNull();
    expect(parseAmount("ten")).toBeNull();
  });
});
