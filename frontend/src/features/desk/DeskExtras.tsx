import { Badge } from "../../components/Badge";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import { useWhenIdle } from "../../lib/whenIdle";
import { CopyAllLevels } from "./CopyAllLevels";
import { PositionSizePanel } from "./PositionSizePanel";
import { TakeTradeDialog } from "./TakeTradeDialog";
import type { Idea } from "./types";
import { createJournalEntryKey, type JournalCreateWrite } from "./useCreateJournalEntry";
import { useTakenEntries } from "./useJournal";
import { useSizing } from "./useSizing";

/**
 * The customer's desk on an idea card: position size, copy all levels, "I took this" and the "Taken" marker. The
 * customer's risk settings and journal are asked for once the page has been painted (lib/whenIdle): the panel and
 * the buttons are drawn with the card, the size and the marker fill in when the answers arrive.
 */
export function DeskExtras({ idea }: { idea: Idea }) {
  const ready = useWhenIdle();
  const sizing = useSizing(idea, ready);
  const takenEntryId = useTakenEntries(ready).get(idea.id) ?? null;
  const taken = takenEntryId !== null;
  // A closed or invalidated idea is a record, not a trade to take.
  const open = idea.status === "active" || idea.status === "pending";
  const units = sizing.result?.ok ? sizing.result.units : null;
  const kept = latestWrite(useKeptWrites<JournalCreateWrite>(createJournalEntryKey, (write) => write.body.ideaId === idea.id));
  return (
    <div className="space-y-3">
      {open ? <PositionSizePanel pair={idea.pair} sizing={sizing} /> : null}
      <div className="flex flex-wrap items-center gap-2">
        <CopyAllLevels idea={idea} />
        {open ? <TakeTradeDialog idea={idea} units={units} takenEntryId={takenEntryId} /> : null}
        {taken ? <Badge tone="green">Taken</Badge> : null}
      </div>
      {kept ? <WriteStatus state={kept.state} message={kept.message} savedText="Saved to your journal" /> : null}
    </div>
  );
}
