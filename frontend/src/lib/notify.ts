import type { ExternalToast } from "sonner";

/**
 * Toasts. Sonner (and its Toaster, mounted by the app) is fetched with the first toast: no screen needs it
 * for its first paint, and a first screen's download stays smaller without it. Import `toast` from here,
 * never from sonner.
 */

type Kind = "message" | "success" | "error";

let asked = false;
const listeners = new Set<() => void>();

/** For `useSyncExternalStore`: whether any toast has been asked for (the app mounts the Toaster from then on). */
export function subscribeToToastRequests(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export function toastRequested(): boolean {
  return asked;
}

function show(kind: Kind, title: string, options?: ExternalToast): void {
  if (!asked) {
    asked = true;
    for (const listener of listeners) listener();
  }
  // One toast per failure: the same error reported again (by a retry, or by two parts of a screen) replaces the
  // toast already shown instead of stacking a copy of it.
  if (kind === "error" && options?.id === undefined) {
    const description = typeof options?.description === "string" ? options.description : "";
    options = { ...options, id: `error:${title}:${description}` };
  }
  // The Toaster shows toasts created before it subscribed, so the order of the two loads does not matter.
  void import("sonner").then(({ toast: sonner }) => (kind === "message" ? sonner(title, options) : sonner[kind](title, options)));
}

export const toast = {
  message: (title: string, options?: ExternalToast) => show("message", title, options),
  success: (title: string, options?: ExternalToast) => show("success", title, options),
  error: (title: string, options?: ExternalToast) => show("error", title, options),
};
