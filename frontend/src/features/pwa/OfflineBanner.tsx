import { onlineManager, useQueryClient, type Query, type QueryClient } from "@tanstack/react-query";
import { CloudOff } from "lucide-react";
import { useEffect, useState, useSyncExternalStore } from "react";

/** Who is signed in and the app's config are on every screen: they say nothing about what this screen shows. */
const BACKGROUND_KEYS = new Set(["config", "auth"]);

function shownOnScreen(query: Query): boolean {
  return query.getObserversCount() > 0 && !BACKGROUND_KEYS.has(String(query.queryKey[0]));
}

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
export function loadedAgo(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? "1 day ago" : `${days} days ago`;
}

/**
 * The banner's text for what this screen shows: the age of the oldest answer on it (the whole screen is at least
 * that fresh), or that part or all of it was never loaded on this device.
 */
export function offlineText(client: QueryClient, now: number): string {
  const shown = client.getQueryCache().getAll().filter(shownOnScreen);
  const loaded = shown.filter((query) => query.state.data !== undefined && query.state.dataUpdatedAt > 0);
  if (shown.length === 0) return "Offline: this screen needs nothing new; what you type is sent when the connection is back.";
  if (loaded.length === 0) return "Offline: this screen was not loaded on this device yet. It will load when the connection is back.";
  const oldest = Math.min(...loaded.map((query) => query.state.dataUpdatedAt));
  const text = `Offline: showing what you last loaded, ${loadedAgo(now - oldest)}.`;
  return loaded.length < shown.length ? `${text} Some parts were never loaded and will load when the connection is back.` : text;
}

/**
 * The one place that says the connection is gone, with a true text for the screen it sits on (which answers it
 * shows and how old they are). Follows TanStack Query's online state, which the browser's events drive.
 */
export function OfflineBanner() {
  const online = useSyncExternalStore(onlineManager.subscribe.bind(onlineManager), () => onlineManager.isOnline(), () => true);
  if (online) return null;
  return <OfflineNotice />;
}

function OfflineNotice() {
  const client = useQueryClient();
  const [text, setText] = useState(() => offlineText(client, Date.now()));
  useEffect(() => {
    const update = () => setText(offlineText(client, Date.now()));
    // Screens mount their queries after this renders; the cache says when what is shown changes.
    const unsubscribe = client.getQueryCache().subscribe(update);
    const timer = window.setInterval(update, 30_000);
    update();
    return () => {
      unsubscribe();
      window.clearInterval(timer);
    };
  }, [client]);
  return (
    <div role="status" className="flex items-center justify-center gap-2 bg-amber-500 px-4 py-1.5 text-center text-sm font-medium text-slate-950">
      <CloudOff className="h-4 w-4 shrink-0" aria-hidden="true" />
      {text}
    </div>
  );
}
