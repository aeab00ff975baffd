import { History } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../../api/errors";
import { Dialog } from "../../../components/Dialog";
import { Spinner } from "../../../components/Spinner";
import { relativeAge } from "../../../lib/relativeAge";
import { RESULT_FIELDS, fieldLabel, revisionValue } from "./revisionText";
import type { Revision } from "../api/types";
import { useIdeaRevisions } from "../api/useIdeaRevisions";

function Change({ r, precision }: { r: Revision; precision: number }) {
  return (
    <li className="rounded-xl border border-line bg-field px-3.5 py-3 text-sm">
      <p className="break-words text-fg">
        <span className="font-semibold">{fieldLabel(r.field)}:</span>{" "}
        <span className="text-muted line-through decoration-rose-500/70">{revisionValue(r.field, r.oldValue, precision)}</span>
        {" → "}
        <span className="font-medium">{revisionValue(r.field, r.newValue, precision)}</span>
      </p>
      <p className="mt-1 text-xs text-muted">
        {r.editorName ?? "Educator"} · <time dateTime={r.createdAt}>{relativeAge(r.createdAt)}</time>
      </p>
    </li>
  );
}

function ChangeList({ title, changes, precision }: { title: string; changes: Revision[]; precision: number }) {
  if (changes.length === 0) return null;
  return (
    <section aria-label={title} className="space-y-2">
      <h3 className="text-xs font-semibold uppercase tracking-wide text-muted">{title}</h3>
      <ol className="space-y-2">
        {changes.map((r) => (
          <Change key={r.id} r={r} precision={precision} />
        ))}
      </ol>
    </section>
  );
}

/**
 * The "edited" marker of a card: opens the changes made after publication, in the card's words ("Entry 1: 1.0850 →
 * 1.0860", "Outcome: Exit 1 reached → none"). Edits (levels, notes, media) and results are listed apart: only edits
 * make a card "edited" (decision 0122).
 */
export function RevisionsDialog({ ideaId, pair, precision }: { ideaId: number; pair: string; precision: number }) {
  const [open, setOpen] = useState(false);
  const revisions = useIdeaRevisions(ideaId, open);
  const edits = revisions.data?.filter((r) => !RESULT_FIELDS.has(r.field)) ?? [];
  const results = revisions.data?.filter((r) => RESULT_FIELDS.has(r.field)) ?? [];
  return (
    <Dialog
      title={`Changes to ${pair}`}
      open={open}
      onOpenChange={setOpen}
      className="max-w-lg"
      trigger={
        <button
          type="button"
          className="-my-3 inline-flex items-center gap-1 rounded-md px-1.5 py-3.5 text-xs font-medium text-muted underline-offset-2 sm:my-0 sm:py-0.5 hover:text-fg hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <History className="h-3.5 w-3.5" aria-hidden="true" />
          edited
        </button>
      }
    >
      {revisions.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted">
          <Spinner className="h-4 w-4" /> Loading changes...
        </p>
      ) : revisions.isError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">
          {errorMessage(revisions.error, "Failed to load changes")}
        </p>
      ) : revisions.data.length === 0 ? (
        <p className="text-sm text-muted">No changes recorded.</p>
      ) : (
        <div className="space-y-4">
          <ChangeList title="Edits" changes={edits} precision={precision} />
          <ChangeList title="Results" changes={results} precision={precision} />
        </div>
      )}
    </Dialog>
  );
}
