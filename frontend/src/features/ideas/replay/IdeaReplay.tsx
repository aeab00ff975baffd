import { Pause, Play, StepBack, StepForward } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { Button } from "../../../components/Button";
import { SegmentedControl } from "../../../components/SegmentedControl";
import { formatR } from "../../../lib/format";
import { stepLabel } from "../../../lib/priceCheck";
import type { Idea } from "../api/types";
import { useIdeaCandles } from "../api/useIdeaCandles";
import { PriceChart, type ChartReplay } from "../card/PriceChart";
import { SPEEDS, candleClock, movesAt, planReplay, replayStatus, stepTo, tickMs, type Speed } from "./replay";

const SPEED_OPTIONS = SPEEDS.map((s) => ({ value: String(s) as `${Speed}`, label: `${s}×` }));

/**
 * The idea's own page replays the trade (issue #42): its candles from publishing to settlement one by one (play,
 * pause, step, 1×-60×, scrub), the levels as lines, the steps as markers, and the best and worst moves so far. It
 * opens on the whole trade; Play from the end starts again from the first candle. The chart's data is the page's
 * cached candles, so the replay works offline once the page was opened.
 */
export function IdeaReplay({ idea }: { idea: Idea }) {
  const candles = useIdeaCandles(idea.id);
  const plan = useMemo(() => (candles.data ? planReplay(idea, candles.data.candles) : null), [idea, candles.data]);
  // Without a window to replay (no candles after publishing, levels that are not numbers): the still chart.
  if (!plan) return <PriceChart idea={idea} />;
  return <Replay key={`${idea.id}-${plan.offset}-${plan.replayed.length}`} idea={idea} plan={plan} />;
}

function Replay({ idea, plan }: { idea: Idea; plan: NonNullable<ReturnType<typeof planReplay>> }) {
  const id = useId();
  const count = plan.replayed.length;
  const [position, setPosition] = useState(count);
  const [started, setStarted] = useState(false);
  const [speed, setSpeed] = useState<Speed>(5);
  // Playing stops by itself at the last candle.
  const playing = started && position < count;

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => setPosition((p) => stepTo(p, 1, count)), tickMs(speed));
    return () => clearInterval(timer);
  }, [playing, speed, count]);

  const steps = useMemo(
    () => plan.events.map((e) => ({ time: plan.replayed[e.index]!.time, step: e.step })),
    [plan],
  );
  const chart: ChartReplay = useMemo(() => ({ visibleCount: plan.offset + position, steps }), [plan.offset, position, steps]);
  const moves = movesAt(plan.replayed, plan.events, plan.levels, position - 1, plan.final);
  const status = replayStatus(position, plan.replayed);
  const spansDays = plan.replayed[count - 1]!.time - plan.replayed[0]!.time >= 86_400;
  const reached = plan.events.filter((e) => e.index < position);
  const triggered = moves.mfe !== null;

  const toggle = () => {
    if (playing) {
      setStarted(false);
      return;
    }
    if (position >= count) setPosition(1);
    setStarted(true);
  };
  const step = (delta: number) => {
    setStarted(false);
    setPosition((p) => stepTo(p, delta, count));
  };

  return (
    <section aria-labelledby={`${id}-title`} className="mt-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-fg">
        Replay
      </h2>
      <p className="text-sm text-muted">
        The candles from publishing to {idea.verification?.settledAt ? "settlement" : "now"}, one by one, with the
        levels and each step of the price check.
      </p>
      <PriceChart idea={idea} replay={chart} />
      <div className="mt-3 rounded-2xl border border-line bg-card p-3">
        <p aria-hidden="true" className="text-sm font-medium tabular-nums text-fg">
          {status}
        </p>
        {/* Said on pause, step and scrub (and at the end), not on every candle while playing. */}
        <p role="status" className="sr-only">
          {playing ? `Playing at ${speed}×` : status}
        </p>
        <label htmlFor={`${id}-position`} className="mt-2 block text-sm font-medium text-fg">
          Replay position
        </label>
        <input
          id={`${id}-position`}
          type="range"
          min={1}
          max={count}
          step={1}
          value={position}
          aria-valuetext={status}
          onChange={(e) => {
            setStarted(false);
            setPosition(Number(e.target.value));
          }}
          className="mt-1 h-11 w-full cursor-pointer accent-emerald-500 sm:h-8"
        />
        <div className="mt-2 flex flex-wrap items-end gap-x-3 gap-y-3">
          <div className="flex gap-2">
            <Button variant="secondary" size="icon" aria-label="Step back" disabled={position <= 1} onClick={() => step(-1)}>
              <StepBack className="h-5 w-5" aria-hidden="true" />
            </Button>
            <Button className="min-w-28" onClick={toggle}>
              {playing ? <Pause className="h-5 w-5" aria-hidden="true" /> : <Play className="h-5 w-5" aria-hidden="true" />}
              {playing ? "Pause" : "Play"}
            </Button>
            <Button variant="secondary" size="icon" aria-label="Step forward" disabled={position >= count} onClick={() => step(1)}>
              <StepForward className="h-5 w-5" aria-hidden="true" />
            </Button>
          </div>
          <div className="min-w-56 flex-1 sm:max-w-72">
            <SegmentedControl
              legend="Speed"
              name={`${id}-speed`}
              value={String(speed) as `${Speed}`}
              options={SPEED_OPTIONS}
              onChange={(value) => setSpeed(Number(value) as Speed)}
            />
          </div>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-muted">Best move so far (MFE)</dt>
            <dd className="font-semibold tabular-nums text-fg">{triggered ? formatR(moves.mfe) : "Not triggered yet"}</dd>
          </div>
          <div>
            <dt className="text-muted">Worst move so far (MAE)</dt>
            <dd className="font-semibold tabular-nums text-fg">{triggered ? formatR(moves.mae) : "Not triggered yet"}</dd>
          </div>
        </dl>
        <h3 className="mt-3 text-sm font-medium text-fg">Steps so far</h3>
        {reached.length === 0 ? (
          <p className="text-sm text-muted">None yet.</p>
        ) : (
          <ol className="text-sm text-muted">
            {reached.map((e) => (
              <li key={`${e.step}-${e.index}`}>
                {stepLabel(e.step)}: candle {e.index + 1}, {candleClock(plan.replayed[e.index]!.time, spansDays)}
              </li>
            ))}
          </ol>
        )}
        <p className="mt-2 text-xs text-muted">
          {plan.fromReceipts
            ? "Steps from the price check's receipts. "
            : "Steps read from these candles with the price check's rules. "}
          R is measured from the planned entry to the invalidation level; moves count from the entry's trigger.
        </p>
      </div>
    </section>
  );
}
