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
import { useEffect, useRef } from "react";
import { ExternalLink } from "../../components/ExternalLink";
import { FEED_LABEL, stepLabel } from "../../lib/priceCheck";
import type { Idea } from "./types";
import { useIdeaCandles, type IdeaCandles } from "./useIdeaCandles";

function levels(idea: Idea): Array<{ title: string; price: number; color: string }> {
  const out: Array<{ title: string; price: number; color: string }> = [];
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

/** The idea's symbol as candles (TradingView's lightweight-charts), its levels as price lines, its steps as markers. */
export function PriceChart({ idea }: { idea: Idea }) {
  const candles = useIdeaCandles(idea.id);
  const box = useRef<HTMLDivElement>(null);
  const data = candles.data;
  useEffect(() => {
    const el = box.current;
    if (!el || !data || data.candles.length === 0) return;
    const text = getComputedStyle(el).color;
    const chart = createChart(el, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: text, attributionLogo: false },
      grid: { vertLines: { visible: false }, horzLines: { color: "rgba(127,127,127,0.15)" } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: true },
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
      upColor: "#10b981",
      downColor: "#e11d48",
      wickUpColor: "#10b981",
      wickDownColor: "#e11d48",
      borderVisible: false,
    });
    series.setData(data.candles.map((c) => ({ ...c, time: c.time as UTCTimestamp })));
    for (const level of lines) {
      series.createPriceLine({ price: level.price, color: level.color, lineWidth: 1, lineStyle: LineStyle.Dashed, title: level.title });
    }
    createSeriesMarkers(series, markers(idea, data));
    chart.timeScale().fitContent();
    return () => chart.remove();
  }, [data, idea]);

  if (!data) return null;
  return (
    <figure className="m-0 mt-4 rounded-2xl border border-line bg-card p-3 text-muted">
      {data.candles.length === 0 ? (
        <p className="text-sm">{describe(idea, data)}</p>
      ) : (
        <div ref={box} role="img" aria-label={describe(idea, data)} className="h-72 w-full sm:h-96" />
      )}
      <figcaption className="mt-1 text-right text-[11px]">
        Prices from {data.feed ? FEED_LABEL[data.feed] : "no feed"}
        {data.feed === "oanda" ? " (bid)" : ""}. Chart by{" "}
        <ExternalLink href="https://www.tradingview.com/lightweight-charts/" className="underline hover:text-fg">
          TradingView Lightweight Charts
        </ExternalLink>
      </figcaption>
    </figure>
  );
}
