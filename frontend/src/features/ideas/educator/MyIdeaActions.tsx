import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../../components/Button";
import { ResultControls } from "./ResultControls";
import { ResultCorrectionNote } from "./ResultCorrectionNote";
import type { Idea } from "../api/types";
import { DeleteIdeaConfirm, NOT_DELETABLE } from "./DeleteIdeaConfirm";
import { LessonControls } from "./LessonDialog";
import { useIdeaActions } from "../api/useIdeaActions";
import { RESULT_FIXED_MESSAGE, useFixed } from "../api/useFixed";

/**
 * The educator view of a card (My Trade Ideas): the result controls while the result can still change (the
 * dashboard's, in the same words), the lesson once completed, Edit (the form) and Delete.
 */
export function MyIdeaActions({ idea }: { idea: Idea }) {
  const { changeStatus, deleteIdea, statusBusy, deleting } = useIdeaActions(idea);
  const [confirming, setConfirming] = useState(false);
  const { resultFixed, resultCorrectableUntil } = useFixed(idea);
  // Open ideas, and recorded results within their correction window, can be (re-)graded.
  const gradable = !resultFixed;
  return (
    <div className="mt-auto space-y-2 border-t border-line pt-4">
      <ResultCorrectionNote fixed={resultFixed} correctableUntil={resultCorrectableUntil} message={RESULT_FIXED_MESSAGE} />
      {gradable ? <ResultControls idea={idea} busy={statusBusy} onChange={changeStatus} size="md" /> : null}
      <LessonControls idea={idea} />
      {/* An idea with a recorded result is part of the track record: the server refuses to delete it. */}
      <div className="grid grid-cols-2 gap-2">
        <Link to={`/educator/ideas/${idea.id}/edit`} className={buttonClasses("secondary", "md")} aria-label={`Edit ${idea.pair} trade idea`}>
          <Pencil className="h-4 w-4" aria-hidden="true" />
          Edit
        </Link>
        {/* A completed idea is part of the track record: the control stays, disabled, and says why. */}
        <Button
          variant="ghost"
          disabled={deleting}
          aria-disabled={idea.outcome !== null || undefined}
          title={idea.outcome === null ? undefined : NOT_DELETABLE}
          onClick={() => (idea.outcome === null ? setConfirming(true) : undefined)}
          className={idea.outcome === null ? "text-rose-600 dark:text-rose-400" : "cursor-not-allowed text-rose-600 opacity-50 dark:text-rose-400"}
          aria-label={`Delete ${idea.pair} trade idea`}
        >
          <Trash2 className="h-4 w-4" aria-hidden="true" />
          Delete
        </Button>
      </div>
      <DeleteIdeaConfirm open={confirming} onOpenChange={setConfirming} onConfirm={deleteIdea} />
    </div>
  );
}
