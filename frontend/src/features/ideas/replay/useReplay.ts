import { useEffect, useMemo, useState } from "react";
import type { ChartReplay } from "../card/PriceChart";
import { movesAt, replayStatus, stepTo, tickMs, type Moves, type ReplayEvent, type ReplayPlan, type Speed } from "./replay";

export type ReplayState = {
  /** Candles shown, 1 to the replay's count. */
  position: number;
  playing: boolean;
  speed: Speed;
  /** "Candle 12 of 140 · 14:05 UTC". */
  status: string;
  moves: Moves;
  /** The steps reached so far. */
  reached: ReplayEvent[];
  /** What the chart draws. */
  chart: ChartReplay;
  toggle: () => void;
  step: (delta: number) => void;
  scrub: (position: number) => void;
  setSpeed: (speed: Speed) => void;
};

/**
 * The replay's playback: it opens on the whole trade, Play from the end starts again at the first candle, playing
 * stops by itself at the last one, and stepping or scrubbing pauses it.
 */
export function useReplay(plan: ReplayPlan): ReplayState {
  const count = plan.replayed.length;
  const [position, setPosition] = useState(count);
  const [started, setStarted] = useState(false);
  const [speed, setSpeed] = useState<Speed>(5);
  const playing = started && position < count;

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => setPosition((p) => stepTo(p, 1, count)), tickMs(speed));
    return () => clearInterval(timer);
  }, [playing, speed, count]);

  const steps = useMemo(() => plan.events.map((e) => ({ time: plan.replayed[e.index]!.time, step: e.step })), [plan]);
  const chart = useMemo(() => ({ visibleCount: plan.offset + position, steps }), [plan.offset, position, steps]);

  return {
    position,
    playing,
    speed,
    status: replayStatus(position, plan.replayed),
    moves: movesAt(plan.replayed, plan.events, plan.levels, position - 1, plan.final),
    reached: plan.events.filter((e) => e.index < position),
    chart,
    toggle: () => {
      if (playing) {
        setStarted(false);
        return;
      }
      if (position >= count) setPosition(1);
      setStarted(true);
    },
    step: (delta) => {
      setStarted(false);
      setPosition((p) => stepTo(p, delta, count));
    },
    scrub: (to) => {
      setStarted(false);
      setPosition(stepTo(to, 0, count));
    },
    setSpeed,
  };
}
