import { AreaSeries, ColorType, createChart, LineSeries, TickMarkType, type Time } from "lightweight-charts";
import { useEffect, useRef } from "react";
import { cn } from "../../components/cn";
import { ExternalLink } from "../../components/ExternalLink";
import { formatR } from "../../lib/format";
import { chartData } from "./chartData";
import type { CurvePoint } from "./types";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A tick of the time axis as a date: "12 Sep", or "2026" where the year changes. */
export function tickDate(time: Time, type: TickMarkType): string {
  const day = new Date((typeof time === "number" ? time : 0) * 1000);
  if (type === TickMarkType.Year) return String(day.getUTCFullYear());
  return `${day.getUTCDate()} ${MONTHS[day.getUTCMonth()]}`;
}

function describe(points: CurvePoint[]): string {
  const last = points.at(-1);
  return last ? `Equity curve: cumulative R over ${points.length} completed ideas, now ${formatR(last.cumulativeR)}` : "Equity curve: no completed ideas yet";
}

/**
 * The equity curve (cumulative R in closing order) drawn with TradingView's lightweight-charts; `compact` is the
 * sparkline of the educators list (no axes, no interaction). Loaded only with the educator pages.
 */
export function EquityChart({ points, compact = false, className }: { points: CurvePoint[]; compact?: boolean; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const text = getComputedStyle(el).color;
    const last = points.at(-1)?.cumulativeR ?? 0;
    const colour = last < 0 ? "#e11d48" : "#10b981";
    const chart = createChart(el, {
      autoSize: true,
      // Attribution is a caption under the big chart (a link inside the chart would sit inside role="img").
      layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: text, attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { visible: !compact, color: "rgba(127,127,127,0.15)" } },
      rightPriceScale: { visible: !compact, borderVisible: false },
      // Every tick a date ("12 Sep"; the year where it changes), so a phone's few ticks still say when.
      timeScale: { visible: !compact, borderVisible: false, tickMarkFormatter: tickDate },
      crosshair: compact ? { vertLine: { visible: false }, horzLine: { visible: false } } : {},
      handleScroll: !compact,
      handleScale: !compact,
    });
    // No last-value tag on the price scale: it covered the scale's own labels; the heading states the value.
    const options = { lineColor: colour, lineWidth: 2 as const, priceLineVisible: false, lastValueVisible: false };
    const series = compact
      ? chart.addSeries(LineSeries, { ...options, color: colour, crosshairMarkerVisible: false })
      : chart.addSeries(AreaSeries, { ...options, topColor: `${colour}55`, bottomColor: `${colour}05` });
    series.setData(chartData(points));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [points, compact]);
  return (
    <figure className={cn("m-0 flex flex-col text-muted", className)}>
      <div ref={box} role="img" aria-label={describe(points)} className="min-h-0 w-full flex-1" />
      {compact ? null : (
        <figcaption className="mt-1 text-right text-[11px]">
          Chart by{" "}
          <ExternalLink href="https://www.tradingview.com/lightweight-charts/" className="underline hover:text-fg">
            TradingView Lightweight Charts
          </ExternalLink>
        </figcaption>
      )}
    </figure>
  );
}
