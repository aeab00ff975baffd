import { Badge } from "../../components/Badge";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import { CopyAllLevels } from "./CopyAllLevels";
import { PositionSizePanel } from "./PositionSizePanel";
import { TakeTradeDialog } from "./TakeTradeDialog";
import type { Idea } from "./types";
import { createJournalEntryKey, type JournalCreateWrite } from "./useCreateJournalEntry";
import { useTakenIdeaIds } from "./useJournal";
import { useSizing } from "./useSizing";

/** The customer's desk on an idea card: position size, copy all levels, "I took this" and the "Taken" marker. */
export function DeskExtras({ idea }: { idea: Idea }) {
  const sizing = useSizing(idea);
  const taken = useTakenIdeaIds().has(idea.id);
  const units = sizing.result?.ok ? sizing.result.units : null;
  const kept = latestWrite(useKeptWrites<JournalCreateWrite>(createJournalEntryKey, (write) => write.body.ideaId === idea.id));
  return (
    <div className="space-y-3">
      <PositionSizePanel pair={idea.pair} sizing={sizing} />
      <div className="flex flex-wrap items-center gap-2">
        <CopyAllLevels idea={idea} />
        <TakeTradeDialog idea={idea} units={units} />
        {taken ? <Badge tone="green">Taken</Badge> : null}
      </div>
      {kept ? <WriteStatus state={kept.state} message={kept.message} savedText="Saved to your journal" /> : null}
    </div>
  );
}
