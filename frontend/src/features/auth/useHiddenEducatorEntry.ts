import { useCallback, useEffect, useRef } from "react";

export const HIDDEN_ENTRY_CLICKS = 5;
export const HIDDEN_ENTRY_WINDOW_MS = 3000;

/**
 * Counts clicks; `onUnlock` runs when HIDDEN_ENTRY_CLICKS clicks land within
 * HIDDEN_ENTRY_WINDOW_MS of the first one. The count resets 3 s after the first
 * click and when it reaches five. Returns the click handler to attach.
 */
export function useHiddenEducatorEntry(onUnlock: () => void): () => void {
  const count = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const unlock = useRef(onUnlock);

  useEffect(() => {
    unlock.current = onUnlock;
  }, [onUnlock]);

  const reset = useCallback(() => {
    count.current = 0;
    if (timer.current !== null) {
      clearTimeout(timer.current);
      timer.current = null;
    }
  }, []);

  useEffect(() => reset, [reset]);

  return useCallback(() => {
    if (count.current === 0) {
      timer.current = setTimeout(reset, HIDDEN_ENTRY_WINDOW_MS);
    }
    count.current += 1;
    if (count.current >= HIDDEN_ENTRY_CLICKS) {
      reset();
      unlock.current();
    }
  }, [reset]);
}
