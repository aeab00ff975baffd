/** "Not Now" hides a prompt for this long (spec: PWA dismissal window 7 days). */
export const DISMISS_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const INSTALL_DISMISSED_KEY = "pwa-install-dismissed-at";
export const PUSH_PROMPT_DISMISSED_KEY = "push-prompt-dismissed-at";

type Store = Pick<Storage, "getItem" | "setItem">;

function storage(): Store | null {
  try {
    return typeof window !== "undefined" ? window.localStorage : null;
  } catch {
    return null; // storage blocked
  }
}

/** True while a dismissal stored under `key` is younger than 7 days. */
export function isDismissed(key: string, now = Date.now(), store: Store | null = storage()): boolean {
  const raw = store?.getItem(key);
  if (!raw) return false;
  const at = Number(raw);
  if (!Number.isFinite(at) || at > now) return false; // unreadable or from the future (clock change): show again
  return now - at < DISMISS_WINDOW_MS;
}

/** Stores the dismissal time (ms since epoch). */
export function rememberDismissal(key: string, now = Date.now(), store: Store | null = storage()): void {
  try {
    store?.setItem(key, String(now));
  } catch {
    // quota or privacy mode: the prompt simply comes back next time
  }
}

/** Running as an installed app (display-mode standalone, or iOS home-screen web app). */
export function isStandalone(win: Window = window): boolean {
  const media = typeof win.matchMedia === "function" && win.matchMedia("(display-mode: standalone)").matches;
  const ios = (win.navigator as Navigator & { standalone?: boolean }).standalone === true;
  return media || ios;
}
