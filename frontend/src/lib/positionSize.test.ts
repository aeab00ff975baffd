import { describe, expect, it } from "vitest";
import {
  CANNOT_COMPUTE,
  NEEDS_RATE,
  highRiskWarning,
  positivePrice,
  priceText,
  levelsBlock,
  positionSize,
  rateNeeded,
  splitPair,
  type Sizing,
  type SizingAccount,
  type SizingIdea,
} from "./positionSize";
import { formatNumber as formatAmount, formatUnits } from "./format";

const account: SizingAccount = { accountSize: 10_000, accountCurrency: "USD", riskPercent: 1, leverage: 1 };

function idea(overrides: Partial<SizingIdea>): SizingIdea {
  return {
    pair: "EUR/USD",
    orderType: "BUY",
    ideaType: "Leverage",
    market: "forex",
    entry1: "1.1000",
    entry2: null,
    invalidationLevel: "1.0950",
    exit1: "1.1100",
    exit2: null,
    exit3: null,
    ...overrides,
  };
}

function sized(i: SizingIdea, a: SizingAccount = account, rate?: number): Sizing {
  const result = positionSize(i, a, rate);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe("leverage", () => {
  it("gives the margin a Leverage idea needs and warns when the account and leverage cannot hold the notional", () => {
    // Issue #39: 1.11 lots of EUR/USD is about 120,000 USD of notional, on a 10,000 USD account at 1×.
    const tight = idea({ entry1: "1.0850", invalidationLevel: "1.0841", exit1: "1.0910" });
    const atOne = sized(tight);
    expect(atOne.lots).toBeCloseTo(1.111, 3);
    expect(atOne.leverage).toBe(1);
    expect(atOne.margin).toBeCloseTo(atOne.notional, 6);
    expect(atOne.exceedsAccount).toBe(true);
    const atThirty = sized(tight, { ...account, leverage: 30 });
    expect(atThirty.margin).toBeCloseTo(atOne.notional / 30, 6);
    expect(atThirty.exceedsAccount).toBe(false);
  });

  it("opens an Exchange (spot) idea at 1× whatever the account's leverage", () => {
    const spot = sized(idea({ pair: "BTCUSDT", market: "crypto", ideaType: "Exchange", entry1: "60000", invalidationLevel: "59900", exit1: "61000" }), { ...account, leverage: 20 });
    expect(spot.leverage).toBe(1);
    expect(spot.notional).toBeCloseTo(60_000, 3);
    expect(spot.exceedsAccount).toBe(true);
  });

  it("says when R is measured from the average of two entries", () => {
    expect(sized(idea({ entry2: "1.0980" })).averagedEntry).toBe(true);
    expect(sized(idea({})).averagedEntry).toBe(false);
    expect(sized(idea({})).precision).toBe(4);
  });
});

describe("positionSize", () => {
  it("sizes the issue's EUR/USD example: 0.20 lots, 20,000 units, 50 pips, risk 100.00 USD", () => {
    const s = sized(idea({}));
    expect(s.lots!.toFixed(2)).toBe("0.20");
    expect(formatUnits(s.units)).toBe("20,000");
    expect(s.pips).toBeCloseTo(50, 9);
    expect(formatAmount(s.riskAmount)).toBe("100.00");
    expect(s.conversion).toBe("none");
    expect(s.rewards).toEqual([{ label: "TP1", level: "1.1100", price: 1.11, r: expect.closeTo(2, 9), amount: expect.closeTo(200, 9) }]);
  });

  it("uses the mean of entries 1 and 2", () => {
    const s = sized(idea({ entry1: "1.1000", entry2: "1.0980", invalidationLevel: "1.0940" }));
    expect(s.entry).toBeCloseTo(1.099, 9);
    expect(s.pips).toBeCloseTo(50, 6);
  });

  it("mirrors rewards for a SELL", () => {
    const s = sized(idea({ orderType: "SELL", entry1: "1.1000", invalidationLevel: "1.1050", exit1: "1.0900", exit2: "1.1020" }));
    expect(s.lots!.toFixed(2)).toBe("0.20");
    expect(s.rewards.map((r) => r.r)).toEqual([expect.closeTo(2, 9), expect.closeTo(-0.4, 9)]);
    expect(s.rewards[0]!.amount).toBeCloseTo(200, 9);
  });

  it("counts JPY pips in 0.01 and divides by the entry when the base is the account currency (USD/JPY)", () => {
    const s = sized(idea({ pair: "USD/JPY", entry1: "150.00", invalidationLevel: "149.50", exit1: "151.00" }));
    expect(s.conversion).toBe("entry");
    expect(s.pips).toBeCloseTo(50, 9);
    expect(s.units).toBeCloseTo(30_000, 6);
    expect(s.lots!.toFixed(2)).toBe("0.30");
    expect(s.notional).toBeCloseTo(30_000, 6); // base units are dollars
    expect(s.rewards[0]!.amount).toBeCloseTo(200, 9);
  });

  it("sizes USD/XXX pairs for a USD account without asking for a rate (USD/CHF)", () => {
    expect(rateNeeded("USD/CHF", "USD")).toBeNull();
    const s = sized(idea({ pair: "USD/CHF", entry1: "0.9000", invalidationLevel: "0.8950" }));
    expect(s.units).toBeCloseTo(18_000, 6);
    expect(s.pips).toBeCloseTo(50, 9);
  });

  it("asks for the quote→account rate otherwise (EUR/JPY for a USD account)", () => {
    const cross = idea({ pair: "EUR/JPY", entry1: "160.00", invalidationLevel: "159.50" });
    expect(rateNeeded(cross.pair, "USD")).toBe("JPY");
    expect(positionSize(cross, account)).toEqual({ ok: false, reason: "rate", message: NEEDS_RATE });
    const s = sized(cross, account, 1 / 150);
    expect(s.units).toBeCloseTo(30_000, 6);
    expect(s.pips).toBeCloseTo(50, 9);
  });

  it("treats USDT as USD and gives margin and liquidation for a leveraged crypto idea", () => {
    const btc = idea({ pair: "BTC/USDT", market: "crypto", entry1: "60000", invalidationLevel: "57000", exit1: "66000" });
    const s = sized(btc, { ...account, leverage: 10 });
    expect(s.conversion).toBe("none");
    expect(s.lots).toBeNull();
    expect(formatUnits(s.units)).toBe("0.033333");
    expect(s.notional).toBeCloseTo(2000, 6);
    expect(s.margin).toBeCloseTo(200, 6);
    expect(s.liquidationPrice).toBeCloseTo(54_000, 6);
    expect(s.liquidationBeforeStop).toBe(false);
    const risky = sized(btc, { ...account, leverage: 25 });
    expect(risky.liquidationPrice).toBeCloseTo(57_600, 6);
    expect(risky.liquidationBeforeStop).toBe(true);
  });

  it("puts a SELL's liquidation above the entry", () => {
    const s = sized(idea({ pair: "ETHUSDT", market: "crypto", orderType: "SELL", entry1: "3000", invalidationLevel: "3100", exit1: "2800" }), {
      ...account,
      leverage: 20,
    });
    expect(s.liquidationPrice).toBeCloseTo(3150, 6);
    expect(s.liquidationBeforeStop).toBe(false);
    expect(sized(idea({ pair: "ETHUSDT", market: "crypto", orderType: "SELL", entry1: "3000", invalidationLevel: "3200" }), { ...account, leverage: 20 }).liquidationBeforeStop).toBe(true);
  });

  it("has no liquidation for Exchange (spot) crypto ideas", () => {
    const s = sized(idea({ pair: "BTC/USDT", market: "crypto", ideaType: "Exchange", entry1: "60000", invalidationLevel: "57000" }));
    expect(s.margin).toBeCloseTo(s.notional, 6);
    expect(s.liquidationPrice).toBeNull();
  });

  it.each([
    [{ entry1: "market" }],
    [{ invalidationLevel: "below the range" }],
    [{ entry2: "on retest" }],
    [{ invalidationLevel: "1.1000" }],
  ])("says it can't compute for non-numeric or equal levels %o", (overrides) => {
    expect(positionSize(idea(overrides), account)).toEqual({ ok: false, reason: "levels", message: CANNOT_COMPUTE });
  });

  it("gives units but no lots or pips for metals (XAU/USD)", () => {
    const s = sized(idea({ pair: "XAU/USD", entry1: "2345.00", invalidationLevel: "2309.50", exit1: "2380" }));
    expect(s.lots).toBeNull();
    expect(s.pips).toBeNull();
    expect(s.units).toBeCloseTo(100 / 35.5, 9);
  });

  it("skips a non-numeric exit instead of showing a wrong reward", () => {
    expect(sized(idea({ exit2: "trail", exit3: "1.1200" })).rewards.map((r) => r.label)).toEqual(["TP1", "TP3"]);
  });
});

describe("splitPair", () => {
  it.each([
    ["EUR/USD", "EUR", "USD"],
    ["btcusdt", "BTC", "USDT"],
    ["ETH-USDC", "ETH", "USDC"],
    ["GBPJPY", "GBP", "JPY"],
  ])("%s", (pair, base, quote) => expect(splitPair(pair)).toEqual({ base, quote }));
  it("knows the currency of common indices", () => expect(splitPair("SPX500")).toEqual({ base: "SPX500", quote: "USD" }));
  it("gives up on names it cannot split", () => expect(splitPair("MYSTERY")).toBeNull());
});

describe("levelsBlock", () => {
  it("writes every level in one line and leaves absent ones out", () => {
    expect(
      levelsBlock({ pair: "EUR/USD", orderType: "BUY", entry1: "1.0850", entry2: "1.0830", invalidationLevel: "1.0795", exit1: "1.0910", exit2: "1.0960", exit3: null }),
    ).toBe("EUR/USD BUY | Entry 1.0850 / 1.0830 | SL 1.0795 | TP1 1.0910 TP2 1.0960");
    expect(
      levelsBlock({ pair: "BTC/USDT", orderType: "SELL", entry1: "60000", entry2: null, invalidationLevel: "62000", exit1: "55000", exit2: null, exit3: null }),
    ).toBe("BTC/USDT SELL | Entry 60000 | SL 62000 | TP1 55000");
  });
});

describe("prices and risk as typed", () => {
  it("reads prices greater than 0 and refuses the rest", () => {
    expect(positivePrice("1.0850")).toBe(1.085);
    expect(positivePrice("1,234.5")).toBe(1234.5);
    expect(positivePrice("0")).toBeNull();
    expect(positivePrice("-1")).toBeNull();
    expect(positivePrice("abc")).toBeNull();
    expect(positivePrice("")).toBeNull();
  });
  it("warns above 2 %", () => {
    expect(highRiskWarning(2)).toBeNull();
    expect(highRiskWarning(5)).toBe("High risk: 5 % of your account on one trade");
  });
});

describe("priceText", () => {
  it("keeps the digits typed, without thousands commas, and refuses what is not a price above 0", () => {
    expect(priceText(" 1.0850 ")).toBe("1.0850");
    expect(priceText("27,000.50")).toBe("27000.50");
    expect(priceText("150.250")).toBe("150.250");
    expect(priceText("0.0000")).toBeNull();
    expect(priceText("1e3")).toBeNull();
    expect(priceText("abc")).toBeNull();
  });
});
