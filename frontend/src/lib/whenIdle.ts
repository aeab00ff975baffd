import { useEffect, useState } from "react";

/** Set once the browser has been idle after the first screen: later screens start their secondary work at once. */
let settled = false;
const waiting: Array<{ run: () => void }> = [];
let scheduled = false;

function onIdle(callback: () => void) {
  if (typeof window.requestIdleCallback === "function") window.requestIdleCallback(callback, { timeout: 1000 });
  else window.setTimeout(callback, 1);
}

function scheduleNext() {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  onIdle(() => {
    scheduled = false;
    settled = true;
    waiting.shift()?.run();
    scheduleNext();
  });
}

/**
 * Runs `run` once the browser is idle (at the latest a second later), one waiting callback per idle task, so that
 * what each one starts (a render, its requests) is a task of its own; returns a cancel function.
 */
export function whenIdle(run: () => void): () => void {
  const entry = { run };
  waiting.push(entry);
  scheduleNext();
  return () => {
    const index = waiting.indexOf(entry);
    if (index >= 0) waiting.splice(index, 1);
  };
}

/**
 * False until the browser has been idle after the component mounted, then true (decision 0063). For work that
 * nothing in the first paint shows (the header's and the desk's own requests, the live stream): on the first
 * screen it starts after the page has been painted, one component per idle task, instead of all together in the
 * one task that runs the page's effects after its first commit. Components mounted once the first screen has
 * settled are ready at once.
 */
export function useWhenIdle(): boolean {
  const [ready, setReady] = useState(settled);
  useEffect(() => {
    if (ready) return;
    return whenIdle(() => setReady(true));
  }, [ready]);
  return ready;
}
