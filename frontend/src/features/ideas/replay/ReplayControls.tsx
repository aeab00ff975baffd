import { Pause, Play, StepBack, StepForward } from "lucide-react";
import { useId } from "react";
import { Button } from "../../../components/Button";
import { SegmentedControl } from "../../../components/SegmentedControl";
import { formatR } from "../../../lib/format";
import { stepLabel } from "../../../lib/priceCheck";
import { SPEEDS, candleClock, type ReplayPlan, type Speed } from "./replay";
import type { ReplayState } from "./useReplay";

const SPEED_OPTIONS = SPEEDS.map((s) => ({ value: String(s) as `${Speed}`, label: `${s}×` }));

/**
 * The replay's controls and what it shows so far: the position (a labelled slider, its status said on pause, step
 * and scrub rather than on every candle), play/pause, step back and forward, the speed, the best and worst moves in
 * R, and the steps reached.
 */
export function ReplayControls({ plan, replay }: { plan: ReplayPlan; replay: ReplayState }) {
  const id = useId();
  const count = plan.replayed.length;
  const { position, playing, speed, status, moves } = replay;
  const spansDays = plan.replayed[count - 1]!.time - plan.replayed[0]!.time >= 86_400;
  const triggered = moves.mfe !== null;
  return (
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
        onChange={(e) => replay.scrub(Number(e.target.value))}
        className="mt-1 h-11 w-full cursor-pointer accent-emerald-500 sm:h-8"
      />
      <div className="mt-2 flex flex-wrap items-end gap-x-3 gap-y-3">
        <div className="flex gap-2">
          <Button variant="secondary" size="icon" aria-label="Step back" disabled={position <= 1} onClick={() => replay.step(-1)}>
            <StepBack className="h-5 w-5" aria-hidden="true" />
          </Button>
          <Button className="min-w-28" onClick={replay.toggle}>
            {playing ? <Pause className="h-5 w-5" aria-hidden="true" /> : <Play className="h-5 w-5" aria-hidden="true" />}
            {playing ? "Pause" : "Play"}
          </Button>
          <Button variant="secondary" size="icon" aria-label="Step forward" disabled={position >= count} onClick={() => replay.step(1)}>
            <StepForward className="h-5 w-5" aria-hidden="true" />
          </Button>
        </div>
        <div className="min-w-56 flex-1 sm:max-w-72">
          <SegmentedControl
            legend="Speed"
            name={`${id}-speed`}
            value={String(speed) as `${Speed}`}
            options={SPEED_OPTIONS}
            onChange={(value) => replay.setSpeed(Number(value) as Speed)}
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
      {replay.reached.length === 0 ? (
        <p className="text-sm text-muted">None yet.</p>
      ) : (
        <ol className="text-sm text-muted">
          {replay.reached.map((e) => (
            <li key={`${e.step}-${e.index}`}>
              {stepLabel(e.step)}: candle {e.index + 1}, {candleClock(plan.replayed[e.index]!.time, spansDays)}
            </li>
          ))}
        </ol>
      )}
      <p className="mt-2 text-xs text-muted">
        {plan.fromReceipts ? "Steps from the price check's receipts. " : "Steps read from these candles with the price check's rules. "}
        R is measured from the planned entry to the invalidation level; moves count from the entry's trigger.
      </p>
    </div>
  );
}
