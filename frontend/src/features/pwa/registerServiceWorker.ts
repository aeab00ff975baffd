import { listenForInstallPrompt } from "./installPrompt";

export const SW_URL = "/sw.js";
/** Cache the service worker fills with API answers for offline use (see src/sw.ts). */
export const API_CACHE = "api-offline";
/** Cache of images kept after their first view (see src/sw.ts). */
export const MEDIA_CACHE = "media-offline";

/**
 * Startup: listen for the install prompt and register the service worker at /sw.js (scope /).
 * Production builds only (the dev server has no /sw.js).
 */
export function startPwa(): void {
  listenForInstallPrompt();
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SW_URL, { scope: "/" }).catch((error: unknown) => console.warn("Service worker registration failed", error));
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

/** On logout: forget the API answers and images kept for offline use (they belong to the member who left). */
export async function clearOfflineData(): Promise<void> {
  try {
    if ("caches" in window) await Promise.all([caches.delete(API_CACHE), caches.delete(MEDIA_CACHE)]);
  } catch {
    // nothing kept
  }
}
