import { useCallback, useSyncExternalStore } from "react";
import type { Idea } from "./types";

/** The server's refusals, shown where the controls they refuse used to be. */
export const RESULT_FIXED_MESSAGE = "This idea's result is part of the track record and can no longer be changed.";
export const LESSON_FIXED_MESSAGE = "This idea's lesson is part of the track record and can no longer be changed.";
export const IDENTITY_FIXED_MESSAGE =
  "This idea is published: its market, pair, direction, type, time frame, setup and reason can no longer be changed.";

/** Whether the moment `at` (ISO time, or null for never) has passed; re-renders when it does. */
export function useMomentPassed(at: string | null): boolean {
  const when = at === null ? Number.POSITIVE_INFINITY : Date.parse(at);
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!Number.isFinite(when)) return () => undefined;
      // setTimeout holds at most ~24.8 days; a later moment is checked again then.
      const timer = window.setTimeout(onChange, Math.min(Math.max(0, when - Date.now()) + 50, 2_000_000_000));
      return () => window.clearTimeout(timer);
    },
    [when],
  );
  return useSyncExternalStore(subscribe, () => Date.now() > when);
}

/**
 * Which parts of an own idea the server still lets its educator change: the identity (market, pair,
 * direction, type, time frame) for 15 minutes after publishing, a recorded result for 15 minutes after it
 * was recorded. The server enforces both (409); this only shapes the controls.
 */
export function useFixed(idea: Pick<Idea, "identityFixedAt" | "resultFixedAt">) {
  const identityFixed = useMomentPassed(idea.identityFixedAt);
  const resultFixed = useMomentPassed(idea.resultFixedAt);
  return { identityFixed, resultFixed, resultCorrectableUntil: resultFixed ? null : idea.resultFixedAt };
}
