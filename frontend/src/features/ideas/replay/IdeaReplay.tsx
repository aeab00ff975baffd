import { useId, useMemo } from "react";
import type { Idea } from "../api/types";
import { useIdeaCandles } from "../api/useIdeaCandles";
import { PriceChart } from "../card/PriceChart";
import { planReplay, type ReplayPlan } from "./replay";
import { ReplayControls } from "./ReplayControls";
import { useReplay } from "./useReplay";

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

function Replay({ idea, plan }: { idea: Idea; plan: ReplayPlan }) {
  const id = useId();
  const replay = useReplay(plan);
  return (
    <section aria-labelledby={`${id}-title`} className="mt-4">
      <h2 id={`${id}-title`} className="text-lg font-semibold text-fg">
        Replay
      </h2>
      <p className="text-sm text-muted">
        The candles from publishing to {idea.verification?.settledAt ? "settlement" : "now"}, one by one, with the
        levels and each step of the price check.
      </p>
      <PriceChart idea={idea} replay={replay.chart} />
      <ReplayControls plan={plan} replay={replay} />
    </section>
  );
}
