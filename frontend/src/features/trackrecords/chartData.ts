import type { UTCTimestamp } from "lightweight-charts";
import type { CurvePoint } from "./types";

const DAY = 86_400;

/**
 * Chart data: one point a completed idea, starting from 0 the day before the first close. The chart needs strictly
 * increasing whole seconds, so an idea closing in the same second as the one before is drawn one second later.
 */
export function chartData(points: CurvePoint[]) {
  const data: { time: UTCTimestamp; value: number }[] = [];
  for (const p of points) {
    const previous = data.at(-1)?.time ?? -Infinity;
    const time = Math.max(Math.floor(Date.parse(p.at) / 1000), previous + 1) as UTCTimestamp;
    data.push({ time, value: p.cumulativeR });
  }
  const first = data[0];
  return first ? [{ time: (first.time - DAY) as UTCTimestamp, value: 0 }, ...data] : data;
}
