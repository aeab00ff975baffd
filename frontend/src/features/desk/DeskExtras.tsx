import { Badge } from "../../components/Badge";
import { CopyAllLevels } from "./CopyAllLevels";
import { PositionSizePanel } from "./PositionSizePanel";
import { TakeTradeDialog } from "./TakeTradeDialog";
import type { Idea } from "./types";
import { useTakenIdeaIds } from "./useJournal";
import { useSizing } from "./useSizing";

/** The customer's desk on an idea card: position size, copy all levels, "I took this" and the "Taken" marker. */
export function DeskExtras({ idea }: { idea: Idea }) {
  const sizing = useSizing(idea);
  const taken = useTakenIdeaIds().has(idea.id);
  const units = sizing.result?.ok ? sizing.result.units : null;
  return (
    <div className="space-y-3">
      <PositionSizePanel pair={idea.pair} sizing={sizing} />
      <div className="flex flex-wrap items-center gap-2">
        <CopyAllLevels idea={idea} />
        <TakeTradeDialog idea={idea} units={units} />
        {taken ? <Badge tone="green">Taken</Badge> : null}
      </div>
    </div>
  );
}
