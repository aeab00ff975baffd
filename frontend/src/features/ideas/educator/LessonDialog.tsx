import { GraduationCap } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../../api/errors";
import { Button } from "../../../components/Button";
import { Dialog } from "../../../components/Dialog";
import { ErrorAlert } from "../../../components/ErrorAlert";
import { Label } from "../../../components/Label";
import { Spinner } from "../../../components/Spinner";
import { Textarea } from "../../../components/Textarea";
import { toast } from "../../../lib/notify";
import type { Idea } from "../api/types";
import { LESSON_FIXED_MESSAGE, useMomentPassed } from "../api/useFixed";
import { useSetLesson } from "../api/useSetLesson";

const LESSON_MAX = 1000;

/**
 * The educator's lesson on an own completed idea: "What happened" and "Lesson", added from the card and correctable
 * for 15 minutes after it was first added; then it is part of the record (the server refuses with 409).
 */
export function LessonControls({ idea }: { idea: Idea }) {
  const fixed = useMomentPassed(idea.lesson?.fixedAt ?? null);
  if (!idea.completed) return null;
  if (fixed) {
    return <p className="text-xs text-muted">{LESSON_FIXED_MESSAGE}</p>;
  }
  return <LessonDialog idea={idea} />;
}

function LessonDialog({ idea }: { idea: Idea }) {
  const id = useId();
  const save = useSetLesson();
  const [open, setOpen] = useState(false);
  const [whatHappened, setWhatHappened] = useState(idea.lesson?.whatHappened ?? "");
  const [lesson, setLesson] = useState(idea.lesson?.lesson ?? "");
  const editing = idea.lesson !== null;

  const onOpenChange = (next: boolean) => {
    if (next) {
      setWhatHappened(idea.lesson?.whatHappened ?? "");
      setLesson(idea.lesson?.lesson ?? "");
      save.reset();
    }
    setOpen(next);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { id: idea.id, body: { whatHappened, lesson } },
      {
        onSuccess: () => {
          toast.success("Lesson saved", { description: "It can be corrected for 15 minutes." });
          setOpen(false);
        },
      },
    );
  };

  return (
    <Dialog
      title={editing ? "Edit lesson" : "Add lesson"}
      description={`${idea.pair}: what happened and what you learned. It can be corrected for 15 minutes, then it is part of the track record.`}
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="outline" size="sm">
          <GraduationCap className="h-4 w-4" aria-hidden="true" />
          {editing ? "Edit lesson" : "Add lesson"}
        </Button>
      }
    >
      <form aria-label={`Lesson for ${idea.pair}`} onSubmit={onSubmit} className="space-y-3">
        <div>
          <Label htmlFor={`${id}-what`}>What happened</Label>
          <Textarea id={`${id}-what`} rows={3} required maxLength={LESSON_MAX} value={whatHappened} onChange={(e) => setWhatHappened(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-lesson`}>Lesson</Label>
          <Textarea id={`${id}-lesson`} rows={3} required maxLength={LESSON_MAX} value={lesson} onChange={(e) => setLesson(e.target.value)} />
        </div>
        {save.isError ? <ErrorAlert message={errorMessage(save.error, "Failed to save the lesson")} /> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={save.isPending || !whatHappened.trim() || !lesson.trim()}>
            {save.isPending ? <Spinner className="h-4 w-4" /> : null}
            Save lesson
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
