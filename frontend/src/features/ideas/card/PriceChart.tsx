import {
  CandlestickSeries,
  ColorType,
  LineStyle,
  createChart,
  createSeriesMarkers,
  type AutoscaleInfo,
  type SeriesMarker,
  type UTCTimestamp,
} from "lightweight-charts";
import { useEffect, useRef, useState } from "react";
import { ExternalLink } from "../../../components/ExternalLink";
import { spreadTags } from "../../../lib/levelTags";
import { FEED_LABEL, chartSource, stepLabel } from "../../../lib/priceCheck";
import type { Idea } from "../api/types";
import { useIdeaCandles, type IdeaCandles } from "../api/useIdeaCandles";

type Level = { title: string; price: number; color: string };
type Tag = { title: string; text: string; color: string; top: number };

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

function markers(idea: Idea, candles: IdeaCandles): SeriesMarker<UTCTimestamp>[] {
  const step = candles.candles.length > 1 ? candles.candles[1]!.time - candles.candles[0]!.time : 60;
  return (idea.verification?.receipts ?? []).map((r) => {
    const seconds = Math.floor(new Date(r.candleTime).getTime() / 1000);
    const stop = r.step === "stop";
    return {
      time: (seconds - (seconds % step)) as UTCTimestamp,
      position: stop ? "belowBar" : "aboveBar",
      color: stop ? "#e11d48" : r.step === "triggered" ? "#3b82f6" : "#10b981",
      shape: stop ? "arrowUp" : "arrowDown",
      text: stepLabel(r.step),
    } as const;
  });
}

function describe(idea: Idea, data: IdeaCandles): string {
  const feed = data.feed ? FEED_LABEL[data.feed] : "no feed";
  if (data.candles.length === 0) return `${idea.pair}: no prices stored yet (${feed})`;
  return `${idea.pair} candlestick chart from ${feed} ${data.symbol ?? ""}: ${data.candles.length} ${data.granularity ?? ""} candles with the idea's levels`;
}

/**
 * The idea's symbol as candles (TradingView's lightweight-charts), its levels as price lines, its steps as markers.
 * The levels' tags are drawn inside the pane, moved apart where lines are close: on the price scale they would
 * cover its own labels (the library does not move either out of the other's way).
 */
export function PriceChart({ idea }: { idea: Idea }) {
  const candles = useIdeaCandles(idea.id);
  const box = useRef<HTMLDivElement>(null);
  const [tags, setTags] = useState<Tag[]>([]);
  const data = candles.data;
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
      timeScale: { borderVisible: false, timeVisible: true },
      // The price scale follows the candles and levels (dragging it would leave the tags behind).
      handleScale: { axisPressedMouseMove: { time: true, price: false } },
    });
    const lines = levels(idea);
    const series = chart.addSeries(CandlestickSeries, {
      // The levels stay in view even where the price never went near them.
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        if (!info?.priceRange || lines.length === 0) return info;
        const prices = lines.map((l) => l.price);
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
    series.setData(data.candles.map((c) => ({ ...c, time: c.time as UTCTimestamp })));
    for (const level of lines) {
      series.createPriceLine({ price: level.price, color: level.color, lineWidth: 1, lineStyle: LineStyle.Dashed, axisLabelVisible: false, title: "" });
    }
    createSeriesMarkers(series, markers(idea, data));
    const timeScale = chart.timeScale();
    const format = series.priceFormatter();
    let frame = 0;
    let framed = false;
    const place = () => {
      frame = 0;
      if (!framed && timeScale.width() > 0) {
        // Every candle in view with room on both sides: before the first for the first time label (centred on
        // its candle, it would be cut at the edge) and after the last for its marker's words ("Exit 1 reached").
        framed = true;
        const spacing = timeScale.width() / (data.candles.length + 1);
        timeScale.setVisibleLogicalRange({
          from: -Math.ceil(EDGE_ROOM.before / spacing),
          to: data.candles.length - 1 + Math.ceil(EDGE_ROOM.after / spacing),
        });
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
    schedule();
    return () => {
      cancelAnimationFrame(frame);
      timeScale.unsubscribeVisibleLogicalRangeChange(schedule);
      timeScale.unsubscribeSizeChange(schedule);
      chart.remove();
    };
  }, [data, idea]);

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
                className="absolute left-1 whitespace-nowrap rounded border bg-card px-1 text-[11px] leading-4 tabular-nums"
                style={{ top: tag.top, height: TAG_HEIGHT, borderColor: tag.color, color: tag.color }}
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
