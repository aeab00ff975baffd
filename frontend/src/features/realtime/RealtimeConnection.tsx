import { WifiOff } from "lucide-react";
import { useEffect } from "react";
import type { EventHandlers, Viewer } from "../../lib/realtime";
import { useRealtime } from "./useRealtime";

/**
 * The live connection for a signed-in user, plus a discreet notice while it is down.
 * Mount once (per tab) for as long as someone is signed in; unmounting closes the stream.
 */
export function RealtimeConnection({
  viewer,
  handlers,
  onGaveUp,
}: {
  viewer: Viewer;
  /** Every feature's event handlers, combined by the app (this feature knows no other feature). */
  handlers: EventHandlers;
  onGaveUp?: () => void;
}) {
  const status = useRealtime(viewer, handlers, onGaveUp);
  useEffect(() => {
    // <html data-realtime="open|connecting|reconnecting">: lets tests and support see the stream's state.
    document.documentElement.dataset.realtime = status;
    return () => {
      delete document.documentElement.dataset.realtime;
    };
  }, [status]);
  if (status !== "reconnecting") return null;
  return (
    <div
      role="status"
      className="pointer-events-none fixed bottom-3 left-3 z-50 inline-flex items-center gap-1.5 rounded-full border border-line bg-card/95 px-3 py-1 text-xs font-medium text-muted shadow-lg backdrop-blur"
    >
      <WifiOff className="h-3.5 w-3.5 text-amber-500" aria-hidden="true" />
      Reconnecting…
    </div>
  );
}
