import { Lock } from "lucide-react";

let timeFormat: Intl.DateTimeFormat | undefined;

/** "14:32" in the reader's locale. */
function formatTime(iso: string): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
  return timeFormat.format(new Date(iso));
}

/**
 * Where an educator's result controls are: until when a recorded result can still be corrected, or, once
 * that has passed, why the controls are gone.
 */
export function ResultCorrectionNote({ fixed, correctableUntil, message }: { fixed: boolean; correctableUntil: string | null; message: string }) {
  if (fixed) {
    return (
      <p role="note" className="flex items-start gap-2 rounded-xl border border-line bg-field px-3 py-2 text-xs text-muted">
        <Lock className="mt-0.5 h-3.5 w-3.5 shrink-0" aria-hidden="true" />
        <span>{message}</span>
      </p>
    );
  }
  if (correctableUntil === null) return null;
  return (
    <p className="text-xs text-muted">
      You can correct this result until <time dateTime={correctableUntil}>{formatTime(correctableUntil)}</time>.
    </p>
  );
}
