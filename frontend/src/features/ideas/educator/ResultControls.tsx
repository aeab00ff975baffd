import { Ban, RotateCcw } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/Button";
import { ConfirmDialog } from "../../../components/overlays/ConfirmDialog";
import { contradictionQuestion } from "../../../lib/correctionWindow";
import { possibleChanges, type IdeaStatus } from "../../../lib/ideaStatus";
import { OutcomeMenu } from "./OutcomeMenu";
import type { Idea } from "../api/types";
import type { Completion } from "../api/useSetIdeaStatus";

type Pending = { status: IdeaStatus; completion: Completion; question: string };

/** The outcome a status change records (the server's defaults, decision 0018). */
function recordedOutcome(status: IdeaStatus, completion: Completion): Idea["outcome"] {
  if (completion.outcome) return completion.outcome;
  if (status === "successful") return "exit1";
  if (status === "unsuccessful") return "invalidation";
  if (status === "invalidated") return "not_triggered";
  return null;
}

/**
 * An educator's result controls, the same on the dashboard and on My Trade Ideas: only the changes possible from the
 * idea's status, in the spec's words (Successful, Unsuccessful, Invalid, Reset). An outcome the price check
 * contradicts is asked about once before it is recorded.
 */
export function ResultControls({
  idea,
  busy,
  onChange,
  size = "sm",
}: {
  idea: Idea;
  busy: boolean;
  onChange: (status: IdeaStatus, completion?: Completion) => void;
  size?: "sm" | "md";
}) {
  const [pending, setPending] = useState<Pending | null>(null);
  const choose = (status: IdeaStatus, completion: Completion = {}) => {
    const outcome = recordedOutcome(status, completion);
    const question = outcome === null ? null : contradictionQuestion(idea.verification, outcome, completion.closePrice);
    if (question === null) onChange(status, completion);
    else setPending({ status, completion, question });
  };
  const changes = possibleChanges(idea.status);
  return (
    <>
      <div className="grid grid-cols-2 gap-2">
        {changes.includes("successful") ? <OutcomeMenu idea={idea} status="successful" label="Successful" size={size} disabled={busy} onChoose={choose} /> : null}
        {changes.includes("unsuccessful") ? <OutcomeMenu idea={idea} status="unsuccessful" label="Unsuccessful" size={size} disabled={busy} onChoose={choose} /> : null}
        {changes.includes("invalidated") ? (
          <Button size={size} variant="outline" disabled={busy} onClick={() => choose("invalidated")} className="px-2 text-amber-600 dark:text-amber-400">
            <Ban className="h-4 w-4" aria-hidden="true" />
            Invalid
          </Button>
        ) : null}
        {changes.includes("pending") ? (
          <Button size={size} variant="ghost" className="px-2" disabled={busy} onClick={() => choose("pending")}>
            <RotateCcw className="h-4 w-4" aria-hidden="true" />
            Reset
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title="The price check disagrees"
        description={pending?.question ?? ""}
        confirmLabel="Record anyway"
        onConfirm={() => {
          if (pending) onChange(pending.status, pending.completion);
          setPending(null);
        }}
      />
    </>
  );
}
