import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { earliestPosition, forgetPositions } from "../../api/streamPosition";
import { dispatch, type EventHandlers, type RealtimeEvent, type RealtimeEventType, type Viewer } from "../../lib/realtime";

export const EVENTS_URL = "/api/events";

export type ConnectionStatus = "connecting" | "open" | "reconnecting";

/** Backoff for reconnects the browser gave up on (a non-200 answer): 2 s, 4 s ... at most 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(30_000, 2_000 * 2 ** Math.max(0, attempt));
}

/** Only one stream per tab, whatever mounts this hook. */
let openSource: EventSource | null = null;

/**
 * Keeps one EventSource on GET /api/events while `viewer` is set and hands each event, as the generated
 * `RealtimeEvent` (`{type, ...data}`), to the handler the features registered for its type. The browser reconnects by itself (sending Last-Event-ID so nothing is lost); when it
 * gives up (e.g. the server answered 401 or 503) this reconnects after a backoff with ?lastEventId=
 * and calls `onGaveUp` (the app refreshes the session then, so a logged-out tab stops trying).
 * Going offline shows the stream as reconnecting; coming back online reconnects at once.
 *
 * The first stream starts from the data already shown (`?since=`, see `api/streamPosition.ts`): the server sends
 * `resync` if anything changed between that data and the stream.
 *
 * After a gap (the stream reopened after an error or going offline, or the server sent `resync`) every
 * query is invalidated, so what is on screen is refetched: the replay should have covered the gap, but a
 * tab must not stay wrong when it could not (a resync, events pruned while the tab slept).
 */
export function useRealtime(viewer: Viewer | null, handlers: EventHandlers, onGaveUp?: () => void): ConnectionStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const gaveUp = useRef(onGaveUp);
  useEffect(() => {
    gaveUp.current = onGaveUp;
  }, [onGaveUp]);

  const id = viewer?.id;
  const role = viewer?.role;

  useEffect(() => {
    if (id === undefined || role === undefined || typeof EventSource === "undefined") return;
    const who: Viewer = { id, role };
    let source: EventSource | null = null;
    let timer: number | undefined;
    let attempt = 0;
    let lastEventId: string | null = null;
    let stopped = false;
    // Set when the stream broke: the next open refetches what is shown.
    let gap = false;

    const refetchShown = () => void queryClient.invalidateQueries();

    const onEvent = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (typeof data !== "object" || data === null) return;
      // The payload's shape is the server's OpenAPI contract (checked by the generated types at build time).
      dispatch(handlers, queryClient, { ...data, type: event.type } as RealtimeEvent, who);
    };

    // Away too long for a replay: note where the stream goes on from and reload everything shown.
    const onResync = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
      refetchShown();
    };

    // Where the data already shown stands: a first stream from there starts with `resync` if anything changed.
    // Forgotten once a stream opens (not when read: an effect run twice, as React's StrictMode does, reads it twice).
    const since = earliestPosition();

    const connect = () => {
      openSource?.close();
      const url = lastEventId
        ? `${EVENTS_URL}?lastEventId=${encodeURIComponent(lastEventId)}`
        : since
          ? `${EVENTS_URL}?since=${since}`
          : EVENTS_URL;
      const es = new EventSource(url);
      source = es;
      openSource = es;
      es.onopen = () => {
        forgetPositions();
        attempt = 0;
        setStatus("open");
        if (gap) {
          gap = false;
          refetchShown();
        }
      };
      es.onerror = () => {
        if (stopped || source !== es) return;
        gap = true;
        setStatus("reconnecting");
        if (es.readyState !== EventSource.CLOSED) return; // the browser retries by itself
        es.close();
        gaveUp.current?.();
        timer = window.setTimeout(connect, retryDelay(attempt++));
      };
      for (const type of Object.keys(handlers) as RealtimeEventType[]) {
        if (type !== "resync") es.addEventListener(type, onEvent as EventListener);
      }
      es.addEventListener("resync", onResync as EventListener);
    };

    // Offline, the stream cannot be alive even if the socket has not noticed yet; back online, start a
    // fresh stream at once (replaying from the last event id) instead of waiting for a timeout.
    const onOffline = () => setStatus("reconnecting");
    const onOnline = () => {
      gap = true;
      window.clearTimeout(timer);
      source?.close();
      connect();
    };
    window.addEventListener("offline", onOffline);
    window.addEventListener("online", onOnline);

    connect();
    return () => {
      stopped = true;
      window.removeEventListener("offline", onOffline);
      window.removeEventListener("online", onOnline);
      setStatus("connecting");
      window.clearTimeout(timer);
      source?.close();
      if (openSource === source) openSource = null;
      source = null;
    };
  }, [id, role, queryClient, handlers]);

  return id === undefined ? "connecting" : status;
}
