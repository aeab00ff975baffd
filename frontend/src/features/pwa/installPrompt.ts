/** The deferred `beforeinstallprompt` event, kept from page load so the banner can use it later. */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
let listening = false;

function emit() {
  for (const listener of listeners) listener();
}

/** Starts listening (idempotent); call once at startup, before React renders. */
export function listenForInstallPrompt(win: Window = window): void {
  if (listening) return;
  listening = true;
  win.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault(); // we show our own banner
    deferred = event as BeforeInstallPromptEvent;
    emit();
  });
  win.addEventListener("appinstalled", () => {
    deferred = null;
    emit();
  });
}

export function subscribeInstallPrompt(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getInstallPrompt(): BeforeInstallPromptEvent | null {
  return deferred;
}

/** Shows the browser's install dialog; the event can be used once, whatever the answer. */
export async function promptInstall(): Promise<"accepted" | "dismissed" | "unavailable"> {
  const event = deferred;
  if (!event) return "unavailable";
  deferred = null;
  emit();
  try {
    await event.prompt();
    const choice = await event.userChoice;
    return choice.outcome;
  } catch (error) {
    console.warn("Install failed", error);
    return "dismissed";
  }
}

/**
 * iPhone and iPad: Safari (and every iOS browser, all built on it) has no install prompt, so the banner shows the
 * Add to Home Screen steps instead. iPadOS reports itself as a Mac; its touch screen gives it away.
 */
export function isIos(nav: Pick<Navigator, "userAgent" | "maxTouchPoints"> = navigator): boolean {
  return /iPhone|iPad|iPod/i.test(nav.userAgent) || (/Macintosh/i.test(nav.userAgent) && nav.maxTouchPoints > 1);
}
