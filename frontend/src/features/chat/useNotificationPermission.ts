import { useEffect } from "react";

let asked = false;

/**
 * Asks once for browser notification permission when the viewer has not decided yet
 * (Notification.permission === 'default'); does nothing where Notification is missing.
 */
export function useNotificationPermissionPrompt() {
  useEffect(() => {
    if (asked || typeof window === "undefined" || !("Notification" in window)) return;
    if (Notification.permission !== "default") return;
    asked = true;
    try {
      const result = Notification.requestPermission();
      if (result && typeof result.catch === "function") result.catch(() => undefined);
    } catch {
      // old browsers take a callback and throw on a promise-style call; nothing to do
    }
  }, []);
}
