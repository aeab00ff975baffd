import { BellRing, X } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "../../lib/notify";
import { Button } from "../../components/Button";
import { isDismissed, PUSH_PROMPT_DISMISSED_KEY, rememberDismissal } from "./dismissal";
import { ensurePushSubscription, notificationPermission } from "./push";

let synced = false;

/**
 * For customers: a one-line "Enable notifications" bar while the browser has not been asked yet,
 * on the first visit only (showing it counts as a dismissal, so it never pushes the header down again
 * within the 7-day window; the chat page still asks for permission);
 * once permission is granted (here or in the chat's prompt) this browser's push subscription is
 * registered with the server quietly, once per page load.
 */
export function PushPrompt() {
  const [permission, setPermission] = useState(notificationPermission);
  const [hidden, setHidden] = useState(() => isDismissed(PUSH_PROMPT_DISMISSED_KEY));
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (permission !== "granted" || synced) return;
    synced = true;
    void ensurePushSubscription({ ask: false }).then((result) => {
      if (!result.ok) {
        synced = false;
        console.warn("Push subscription failed", result.message);
      }
    });
  }, [permission]);

  useEffect(() => {
    // The chat page may ask for permission; follow the answer.
    if (permission !== "default" || typeof navigator.permissions?.query !== "function") return;
    let status: PermissionStatus | null = null;
    const update = () => setPermission(notificationPermission());
    navigator.permissions
      .query({ name: "notifications" })
      .then((s) => {
        status = s;
        s.addEventListener("change", update);
      })
      .catch(() => undefined);
    return () => status?.removeEventListener("change", update);
  }, [permission]);

  const visible = permission === "default" && !hidden;
  useEffect(() => {
    if (visible) rememberDismissal(PUSH_PROMPT_DISMISSED_KEY);
  }, [visible]);

  if (!visible) return null;

  const enable = async () => {
    setBusy(true);
    const result = await ensurePushSubscription({ ask: true });
    setBusy(false);
    setPermission(notificationPermission());
    if (result.ok) {
      synced = true;
      toast.success("Notifications enabled", { description: "You will be notified when a new idea is sent." });
    } else {
      toast.error("Notifications not enabled", { description: result.message });
    }
  };

  const notNow = () => {
    rememberDismissal(PUSH_PROMPT_DISMISSED_KEY);
    setHidden(true);
  };

  return (
    <section aria-label="Notifications" className="border-b border-line bg-card">
      <div className="mx-auto flex max-w-6xl items-center gap-x-3 px-4 py-1">
        <BellRing className="hidden h-4 w-4 shrink-0 text-emerald-500 sm:block" aria-hidden="true" />
        <p className="min-w-0 flex-1 truncate text-sm text-fg">
          Get alerts for new ideas<span className="hidden sm:inline"> on this device when an educator sends one</span>.
        </p>
        <div className="flex items-center gap-1">
          <Button size="sm" onClick={() => void enable()} disabled={busy} aria-label="Enable notifications">
            Enable<span className="hidden sm:inline"> notifications</span>
          </Button>
          <button
            type="button"
            onClick={notNow}
            aria-label="Dismiss notifications prompt"
            className="inline-flex h-11 w-11 items-center justify-center rounded-lg text-muted sm:h-9 sm:w-9 hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      </div>
    </section>
  );
}
