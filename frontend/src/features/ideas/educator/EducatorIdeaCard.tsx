import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { toast } from "../../../lib/notify";
import { Badge } from "../../../components/Badge";
import { Card } from "../../../components/Card";
import { REQUIRED_FIELDS_MESSAGE } from "../../../lib/ideaForm";
import { invalidationNote } from "../../../lib/ideaStatus";
import { formatDay } from "../../../lib/outcome";
import { ChartImage } from "../card/ChartImage";
import { DeleteIdeaConfirm, NOT_DELETABLE } from "./DeleteIdeaConfirm";
import { DirectionBadge, OutcomeLine, SetupAndReason, StatusBadge } from "../card/IdeaCard";
import { LessonBlock } from "../card/LessonBlock";
import { LessonControls } from "./LessonDialog";
import { ResultControls } from "./ResultControls";
import { PriceCheckLine } from "../card/PriceCheckLine";
import { InlineField } from "../form/InlineField";
import { ResultCorrectionNote } from "./ResultCorrectionNote";
import type { Idea, IdeaUpdate } from "../api/types";
import { RESULT_FIXED_MESSAGE, useFixed } from "../api/useFixed";
import { useIdeaActions } from "../api/useIdeaActions";
import { useUpdateIdea } from "../api/useUpdateIdea";

type LevelField = "entry1" | "entry2" | "invalidationLevel" | "exit1" | "exit2" | "exit3" | "notes";

const FIELDS: Array<{ name: LevelField; label: string; required?: boolean }> = [
  { name: "entry1", label: "Entry 1", required: true },
  { name: "entry2", label: "Entry 2" },
  { name: "invalidationLevel", label: "Invalidation", required: true },
  { name: "exit1", label: "Exit 1", required: true },
  { name: "exit2", label: "Exit 2" },
  { name: "exit3", label: "Exit 3" },
];

const iconButton =
  "inline-flex h-11 w-11 items-center sm:h-9 sm:w-9 justify-center rounded-lg border border-line text-muted transition-colors hover:bg-card-hover hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

/**
 * The educator's own idea: inline level editing (save on blur), status buttons, edit and delete. The status
 * buttons go once a recorded result is part of the track record (15 minutes after it was recorded).
 */
export function EducatorIdeaCard({ idea, onEdit }: { idea: Idea; onEdit: (idea: Idea) => void }) {
  const update = useUpdateIdea();
  const { changeStatus, deleteIdea, statusBusy, deleting } = useIdeaActions(idea);
  const { resultFixed, resultCorrectableUntil } = useFixed(idea);
  const [confirming, setConfirming] = useState(false);
  const invalid = idea.status === "invalidated";
  const images = idea.imageUrls.length > 0 ? idea.imageUrls : idea.chartUrl ? [idea.chartUrl] : [];

  const saveField = async (name: LevelField, label: string, required: boolean, value: string): Promise<boolean> => {
    if (required && !value) {
      toast.error(`Failed to update ${label}`, { description: REQUIRED_FIELDS_MESSAGE });
      return false;
    }
    try {
      const body: IdeaUpdate = { [name]: value || null };
      await update.mutateAsync({ id: idea.id, body });
      toast.success("Trade idea updated", { description: `${label} saved.` });
      return true;
    } catch (error) {
      toast.error("Error", { description: `Failed to update ${label}${error instanceof Error && error.message ? `: ${error.message}` : ""}` });
      return false;
    }
  };

  return (
    <Card className="flex h-full flex-col gap-4 p-4">
      <article aria-label={`${idea.pair} trade idea`} className="flex h-full flex-col gap-4">
        <header className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <h3 className={`truncate text-lg font-bold text-fg ${invalid ? "line-through decoration-amber-500" : ""}`}>{idea.pair}</h3>
            <p className="text-xs text-muted">
              {idea.marketType} · {idea.timeFrame} · <time dateTime={idea.createdAt}>{formatDay(idea.createdAt)}</time>
            </p>
          </div>
          <button type="button" aria-label="Edit trade idea" title="Edit trade idea" className={iconButton} onClick={() => onEdit(idea)}>
            <Pencil className="h-4 w-4" aria-hidden="true" />
          </button>
          {/* With a recorded result the idea is part of the track record: the server refuses to delete it, so the
              control says why instead of failing after the confirmation. */}
          <button
            type="button"
            aria-label="Delete trade idea"
            title={idea.outcome === null ? "Delete trade idea" : NOT_DELETABLE}
            aria-disabled={idea.outcome !== null || undefined}
            className={`${iconButton} ${idea.outcome === null ? "hover:text-rose-500" : "cursor-not-allowed opacity-50"}`}
            onClick={() => (idea.outcome === null ? setConfirming(true) : undefined)}
            disabled={deleting}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </button>
        </header>

        <div className="flex flex-wrap gap-2">
          <StatusBadge status={idea.status} />
          <DirectionBadge orderType={idea.orderType} />
          <Badge tone="violet">{idea.ideaType}</Badge>
        </div>

        {invalid ? (
          <p role="note" className="rounded-xl border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-xs text-amber-800 dark:text-amber-200">
            {invalidationNote(idea.orderType, idea.invalidationLevel)}
          </p>
        ) : null}

        <div className="grid grid-cols-2 gap-x-3 gap-y-2">
          {FIELDS.map((f) => (
            <InlineField
              key={f.name}
              label={f.label}
              value={idea[f.name]}
              strike={invalid}
              onSave={(v) => saveField(f.name, f.label, Boolean(f.required), v)}
            />
          ))}
          <InlineField label="Notes" multiline value={idea.notes} onSave={(v) => saveField("notes", "Notes", false, v)} />
        </div>

        <SetupAndReason idea={idea} />

        {idea.outcome ? <OutcomeLine idea={idea} /> : null}
        <PriceCheckLine idea={idea} />
        <LessonBlock idea={idea} />

        {images.length > 0 ? <ChartImage urls={images} fullUrls={idea.imageFullUrls} alt={`${idea.pair} chart`} /> : null}

        <div className="mt-auto space-y-2">
          {resultFixed ? null : <ResultControls idea={idea} busy={statusBusy} onChange={changeStatus} />}
          <ResultCorrectionNote fixed={resultFixed} correctableUntil={resultCorrectableUntil} message={RESULT_FIXED_MESSAGE} />
          <LessonControls idea={idea} />
        </div>
      </article>
      <DeleteIdeaConfirm open={confirming} onOpenChange={setConfirming} onConfirm={deleteIdea} />
    </Card>
  );
}
