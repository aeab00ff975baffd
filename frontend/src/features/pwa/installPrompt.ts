/** The deferred `beforeinstallprompt` event, kept from page load so the banner can use it later. */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform?: string }>;
}

export const MANIFEST_URL = "/manifest.webmanifest";

/**
 * Links the web app manifest (once; later calls do nothing). The browser then fetches it and its icon and may offer
 * installation (beforeinstallprompt). Not in index.html: on a market page, the first screen the app is measured on,
 * it is linked once the page has been painted (app/SignedIn.tsx), elsewhere when the first screen renders
 * (app/layouts.tsx), so that the manifest, its 7 KB icon and the banner's code do not share the network with the
 * page's own code and data (decision 0064).
 */
export function linkManifest(doc: Document = document): void {
  if (doc.querySelector('link[rel="manifest"]')) return;
  const link = doc.createElement("link");
  link.rel = "manifest";
  link.href = MANIFEST_URL;
  doc.head.append(link);
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
