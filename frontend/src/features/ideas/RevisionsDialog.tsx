import { History } from "lucide-react";
import { useState } from "react";
import { errorMessage } from "../../api/errors";
import { Dialog } from "../../components/Dialog";
import { Spinner } from "../../components/Spinner";
import { relativeAge } from "../../lib/relativeAge";
import { useIdeaRevisions } from "./useIdeaRevisions";

const FIELD_LABEL: Record<string, string> = {
  marketType: "Market",
  orderType: "Direction",
  ideaType: "Idea type",
  pair: "Pair",
  timeFrame: "Time frame",
  entry1: "Entry 1",
  entry2: "Entry 2",
  invalidationLevel: "Invalidation",
  exit1: "Exit 1",
  exit2: "Exit 2",
  exit3: "Exit 3",
  notes: "Notes",
  status: "Status",
  images: "Photos",
  imageIds: "Photos",
  videoUrl: "Video",
  audioUrl: "Audio",
};

function shown(value: string | null): string {
  return value === null || value === "" ? "(empty)" : value;
}

/** The "edited" marker of a card: opens the list of changes made after publication. */
export function RevisionsDialog({ ideaId, pair }: { ideaId: number; pair: string }) {
  const [open, setOpen] = useState(false);
  const revisions = useIdeaRevisions(ideaId, open);
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
        <ol className="space-y-3">
          {revisions.data.map((r) => (
            <li key={r.id} className="rounded-xl border border-line bg-field px-3.5 py-3 text-sm">
              <p className="text-fg">
                <span className="font-semibold">{r.editorName ?? "Educator"}</span> changed{" "}
                <span className="font-semibold">{FIELD_LABEL[r.field] ?? r.field}</span>
              </p>
              <p className="mt-1 break-words text-muted">
                from <span className="text-fg line-through decoration-rose-500/70">{shown(r.oldValue)}</span> to{" "}
                <span className="font-medium text-fg">{shown(r.newValue)}</span>
              </p>
              <p className="mt-1 text-xs text-muted">
                <time dateTime={r.createdAt}>{relativeAge(r.createdAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  );
}
