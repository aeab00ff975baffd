import { GraduationCap } from "lucide-react";
import type { Idea } from "../api/types";

/**
 * What the educator learned once the idea was completed: "What happened" and "Lesson". A named group, not a
 * section: every card with a lesson has one, and landmarks on a page must each have a name of their own.
 */
export function LessonBlock({ idea }: { idea: Idea }) {
  const lesson = idea.lesson;
  if (!lesson) return null;
  return (
    <div role="group" aria-label="Lesson after the close" className="space-y-2 rounded-xl border border-line bg-field px-3 py-2 text-sm">
      <p className="flex items-center gap-1.5 text-xs font-semibold uppercase tracking-wide text-muted">
        <GraduationCap className="h-4 w-4" aria-hidden="true" />
        Lesson after the close
      </p>
      <div>
        <p className="text-xs font-semibold text-muted">What happened</p>
        <p className="whitespace-pre-line break-words text-fg">{lesson.whatHappened}</p>
      </div>
      <div>
        <p className="text-xs font-semibold text-muted">Lesson</p>
        <p className="whitespace-pre-line break-words text-fg">{lesson.lesson}</p>
      </div>
    </div>
  );
}
