import { Lock } from "lucide-react";
import { useEffect, useState } from "react";
import { correctableUntilText } from "../../../lib/correctionWindow";

/** The current time, again every `ms` (the minutes left in a correction window count down). */
function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
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
  return <CorrectableUntil at={correctableUntil} />;
}

/** "You can correct this result until 14:32 UTC today (13 min)." */
function CorrectableUntil({ at }: { at: string }) {
  const now = useNow(30_000);
  return (
    <p className="text-xs text-muted">
      {`You can correct this result ${correctableUntilText(at, now)}.`}
    </p>
  );
}
