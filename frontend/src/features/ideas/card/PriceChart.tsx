import {
  CandlestickSeries,
  ColorType,
  LineStyle,
  createChart,
  createSeriesMarkers,
  type AutoscaleInfo,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef, useState } from "react";
import { ExternalLink } from "../../../components/ExternalLink";
import { spreadTags } from "../../../lib/levelTags";
import { FEED_LABEL, chartSource, stepLabel, type Receipt } from "../../../lib/priceCheck";
import type { Idea } from "../api/types";
import { useIdeaCandles, type IdeaCandles } from "../api/useIdeaCandles";

type Level = { title: string; price: number; color: string };
type Tag = { title: string; text: string; color: string; top: number };

/** The tags' words in a shade of their line's colour that reads on the card in either theme (axe: 4.5:1). */
const TAG_TEXT: Record<string, string> = {
  "#3b82f6": "text-blue-700 dark:text-blue-300",
  "#e11d48": "text-rose-700 dark:text-rose-300",
  "#10b981": "text-emerald-700 dark:text-emerald-300",
};

const TAG_HEIGHT = 18; // px: one line of 11 px text with its padding and border
const EDGE_ROOM = { before: 28, after: 52 }; // px: half a time label; half of "Exit 1 reached" and its arrow

function levels(idea: Idea): Level[] {
  const out: Level[] = [];
  const add = (title: string, value: string | null, color: string) => {
    const price = value === null ? Number.NaN : Number(value.replace(/[,_' ]/g, ""));
    if (Number.isFinite(price)) out.push({ title, price, color });
  };
  add("Entry 1", idea.entry1, "#3b82f6");
  add("Entry 2", idea.entry2, "#3b82f6");
  add("Invalidation", idea.invalidationLevel, "#e11d48");
  add("Exit 1", idea.exit1, "#10b981");
  add("Exit 2", idea.exit2, "#10b981");
  add("Exit 3", idea.exit3, "#10b981");
  return out;
}

/** A step of the trade on the chart: the opening time of the candle it happened in. */
export type ChartStep = { time: number; step: Receipt["step"] };

/** The price check's receipts, each on the chart candle that holds its proving candle. */
function receiptSteps(idea: Idea, candles: IdeaCandles): ChartStep[] {
  const step = candles.candles.length > 1 ? candles.candles[1]!.time - candles.candles[0]!.time : 60;
  return (idea.verification?.receipts ?? []).map((r) => {
    const seconds = Math.floor(new Date(r.candleTime).getTime() / 1000);
    return { time: seconds - (seconds % step), step: r.step };
  });
}

function markers(steps: ChartStep[]): SeriesMarker<UTCTimestamp>[] {
  return steps.map(({ time, step }) => {
    const stop = step === "stop";
    return {
      time: time as UTCTimestamp,
      position: stop ? "belowBar" : "aboveBar",
      color: stop ? "#e11d48" : step === "triggered" ? "#3b82f6" : "#10b981",
      shape: stop ? "arrowUp" : "arrowDown",
      text: stepLabel(step),
    } as const;
  });
}

function describe(idea: Idea, data: IdeaCandles): string {
  const feed = data.feed ? FEED_LABEL[data.feed] : "no feed";
  if (data.candles.length === 0) return `${idea.pair}: no prices stored yet (${feed})`;
  return `${idea.pair} candlestick chart from ${feed} ${data.symbol ?? ""}: ${data.candles.length} ${data.granularity ?? ""} candles with the idea's levels`;
}

/** What a replay draws (issue #42): the first `visibleCount` candles of the window, and its steps so far. */
export type ChartReplay = { visibleCount: number; steps: ChartStep[] };

type Drawn = {
  chart: IChartApi;
  series: ISeriesApi<"Candlestick">;
  marks: ISeriesMarkersPluginApi<Time>;
  frame: () => void;
};

/**
 * The idea's symbol as candles (TradingView's lightweight-charts), its levels as price lines, its steps as markers.
 * The levels' tags are drawn inside the pane, moved apart where lines are close: on the price scale they would
 * cover its own labels (the library does not move either out of the other's way). With `replay`, only its first
 * candles and its steps are drawn, on the scales of the whole window (so they do not jump as candles arrive).
 */
export function PriceChart({ idea, replay }: { idea: Idea; replay?: ChartReplay }) {
  const candles = useIdeaCandles(idea.id);
  const box = useRef<HTMLDivElement>(null);
  const drawn = useRef<Drawn | null>(null);
  const [tags, setTags] = useState<Tag[]>([]);
  const data = candles.data;
  const replaying = replay !== undefined;
  useEffect(() => {
    const el = box.current;
    if (!el || !data || data.candles.length === 0) return;
    const text = getComputedStyle(el).color;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: text, attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { color: "rgba(127,127,127,0.15)" } },
      // A price label that would be cut at the pane's top or bottom is not drawn.
      rightPriceScale: { borderVisible: false, scaleMargins: { top: 0.12, bottom: 0.1 }, entireTextOnly: true },
      timeScale: { borderVisible: false, timeVisible: true, shiftVisibleRangeOnNewBar: false },
      // The price scale follows the candles and levels (dragging it would leave the tags behind).
      handleScale: { axisPressedMouseMove: { time: true, price: false } },
    });
    const lines = levels(idea);
    const all = data.candles;
    const series = chart.addSeries(CandlestickSeries, {
      // The levels stay in view even where the price never went near them; a replay keeps the whole window's range.
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        if (!info?.priceRange) return info;
        const prices = lines.map((l) => l.price);
        if (replaying) prices.push(...all.map((c) => c.low), ...all.map((c) => c.high));
        if (prices.length === 0) return info;
        return {
          ...info,
          priceRange: {
            minValue: Math.min(info.priceRange.minValue, ...prices),
            maxValue: Math.max(info.priceRange.maxValue, ...prices),
          },
        };
      },
      // The pair's own precision (1.0850, not 1.09) for the scale, the last price and every level tag.
      priceFormat: { type: "price", precision: data.precision, minMove: 10 ** -data.precision },
      // No tag for the last price: it sat on the scale's own labels, and the last candle shows it.
      lastValueVisible: false,
      priceLineVisible: false,
      upColor: "#10b981",
      downColor: "#e11d48",
      wickUpColor: "#10b981",
      wickDownColor: "#e11d48",
      borderVisible: false,
    });
    for (const level of lines) {
      series.createPriceLine({ price: level.price, color: level.color, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: "" });
    }
    const marks = createSeriesMarkers(series, []);
    if (!replaying) {
      series.setData(all.map((c) => ({ ...c, time: c.time as UTCTimestamp })));
      marks.setMarkers(markers(receiptSteps(idea, data)));
    }
    const timeScale = chart.timeScale();
    const format = series.priceFormatter();
    let frame = 0;
    let framed = false;
    // Every candle of the window in view with room on both sides: before the first for the first time label
    // (centred on its candle, it would be cut at the edge) and after the last for its marker's words ("Exit 1
    // reached"). A replay keeps the whole window's frame, so its candles arrive from the left.
    const frameAll = () => {
      if (timeScale.width() <= 0) return false;
      const spacing = timeScale.width() / (all.length + 1);
      timeScale.setVisibleLogicalRange({
        from: -Math.ceil(EDGE_ROOM.before / spacing),
        to: all.length - 1 + Math.ceil(EDGE_ROOM.after / spacing),
      });
      return true;
    };
    const place = () => {
      frame = 0;
      if (!framed && frameAll()) {
        framed = true;
        return; // the range change schedules the tags' placement
      }
      const paneHeight = el.clientHeight - timeScale.height();
      const shown = lines
        .map((level) => ({ level, y: series.priceToCoordinate(level.price) }))
        .filter((t): t is { level: Level; y: NonNullable<typeof t.y> } => t.y !== null);
      const tops = spreadTags(shown.map((t) => t.y), TAG_HEIGHT, paneHeight);
      setTags(shown.map(({ level }, i) => ({ title: level.title, text: format.format(level.price), color: level.color, top: tops[i]! })));
    };
    // The scale settles after the library's own frame: place the tags in the next one.
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(place);
    };
    timeScale.subscribeVisibleLogicalRangeChange(schedule);
    timeScale.subscribeSizeChange(schedule);
    drawn.current = { chart, series, marks, frame: () => void (framed && frameAll()) };
    schedule();
    return () => {
      drawn.current = null;
      cancelAnimationFrame(frame);
      timeScale.unsubscribeVisibleLogicalRangeChange(schedule);
      timeScale.unsubscribeSizeChange(schedule);
      chart.remove();
    };
  }, [data, idea, replaying]);

  // The replay's candles and steps so far, drawn into the chart made above.
  const visibleCount = replay?.visibleCount;
  const steps = replay?.steps;
  useEffect(() => {
    const d = drawn.current;
    if (!d || !data || visibleCount === undefined || steps === undefined) return;
    const shown = data.candles.slice(0, visibleCount);
    d.series.setData(shown.map((c) => ({ ...c, time: c.time as UTCTimestamp })));
    const last = shown.length > 0 ? shown[shown.length - 1]!.time : -Infinity;
    d.marks.setMarkers(markers(steps.filter((s) => s.time <= last)));
    d.frame();
  }, [data, visibleCount, steps, replaying, idea]);

  if (!data) return null;
  return (
    <figure className="m-0 mt-4 rounded-2xl border border-line bg-card p-3 text-muted">
      {data.candles.length === 0 ? (
        <p className="text-sm">{describe(idea, data)}</p>
      ) : (
        <div className="relative">
          <div ref={box} role="img" aria-label={describe(idea, data)} className="h-72 w-full sm:h-96" />
          {/* The levels are read from the card's own list; these tags only mark the lines. */}
          <div aria-hidden="true" className="pointer-events-none absolute inset-0 z-10">
            {tags.map((tag) => (
              <span
                key={tag.title}
                data-level-tag={tag.title}
                className={`absolute left-1 whitespace-nowrap rounded border bg-card px-1 text-[11px] leading-4 tabular-nums ${TAG_TEXT[tag.color] ?? ""}`}
                style={{ top: tag.top, height: TAG_HEIGHT, borderColor: tag.color }}
              >
                {tag.title} {tag.text}
              </span>
            ))}
          </div>
        </div>
      )}
      <figcaption className="mt-1 text-right text-[11px]">
        {chartSource(data)}
        {data.granularity ? `, ${data.granularity} candles` : ""}. Chart by{" "}
        <ExternalLink href="https://www.tradingview.com/lightweight-charts/" className="underline hover:text-fg">
          TradingView Lightweight Charts
        </ExternalLink>
      </figcaption>
    </figure>
  );
}
