import { TickMarkType, type UTCTimestamp } from "lightweight-charts";
import { describe, expect, it } from "vitest";
import { chartData } from "./chartData";
import { tickDate } from "./EquityChart";

describe("chartData", () => {
  it("starts from 0 the day before the first close and keeps one point per idea in closing order", () => {
    const points = [
      { at: "2026-01-02T10:00:00Z", cumulativeR: -1 },
      { at: "2026-01-02T11:00:00Z", cumulativeR: 1 },
    ];
    const first = Date.parse("2026-01-02T10:00:00Z") / 1000;
    expect(chartData(points)).toEqual([
      { time: first - 86_400, value: 0 },
      { time: first, value: -1 },
      { time: first + 3600, value: 1 },
    ]);
  });

  it("draws ideas closed in the same second one second apart (the chart needs increasing times)", () => {
    const at = "2026-01-02T10:00:00.100Z";
    const data = chartData([
      { at, cumulativeR: 2 },
      { at: "2026-01-02T10:00:00.900Z", cumulativeR: 1 },
      { at, cumulativeR: 0 },
    ]);
    expect(data.map((d) => d.value)).toEqual([0, 2, 1, 0]);
    expect(data.slice(1).map((d) => d.time - data[1]!.time)).toEqual([0, 1, 2]);
  });

  it("is empty without points", () => {
    expect(chartData([])).toEqual([]);
  });
});

describe("tickDate", () => {
  it("writes each tick of the time axis as a date, and the year where it changes", () => {
    const t = (iso: string) => (Date.parse(iso) / 1000) as UTCTimestamp;
    expect(tickDate(t("2026-09-12T00:00:00Z"), TickMarkType.DayOfMonth)).toBe("12 Sep");
    expect(tickDate(t("2026-07-01T00:00:00Z"), TickMarkType.Month)).toBe("1 Jul");
    expect(tickDate(t("2027-01-01T00:00:00Z"), TickMarkType.Year)).toBe("2027");
  });
});
