import type { QueryClient, QueryKey } from "@tanstack/react-query";
import type { Role, Schemas } from "../api/client";

/**
 * The contract between the realtime connection and the features: the server streams the generated
 * `RealtimeEvent` union (`{type, ...data}`), and each feature hands the app its own handlers for the
 * event types it cares about. The connection only connects, replays and dispatches.
 */

export type RealtimeEvent = Schemas["RealtimeEvent"];
export type RealtimeEventType = RealtimeEvent["type"];
export type EventOf<T extends RealtimeEventType> = Extract<RealtimeEvent, { type: T }>;

/** Who is watching: customers get NEW tags and unseen counts; `mine` message lists keep the viewer's own only. */
export interface Viewer {
  id: number;
  role: Role;
}

export type EventHandler<T extends RealtimeEventType> = (queryClient: QueryClient, event: EventOf<T>, viewer: Viewer) => void;
export type EventHandlers = { [T in RealtimeEventType]?: EventHandler<T> };
type HandlerLists = { [T in RealtimeEventType]?: EventHandler<T>[] };

/** One dispatch table from every feature's handlers (several features may react to the same type). */
export function combineHandlers(...features: EventHandlers[]): EventHandlers {
  const lists: HandlerLists = {};
  for (const handlers of features) {
    for (const type of Object.keys(handlers) as RealtimeEventType[]) {
      const handler = handlers[type];
      if (handler) (lists[type] ??= [] as never[]).push(handler as never);
    }
  }
  const combined: Record<string, EventHandler<RealtimeEventType>> = {};
  for (const [type, handlers] of Object.entries(lists)) {
    combined[type] = (queryClient, event, viewer) => {
      for (const handler of handlers as EventHandler<RealtimeEventType>[]) handler(queryClient, event, viewer);
    };
  }
  return combined as EventHandlers;
}

/** Runs the handler registered for `event.type`, if any. */
export function dispatch(handlers: EventHandlers, queryClient: QueryClient, event: RealtimeEvent, viewer: Viewer): void {
  const handler = handlers[event.type] as EventHandler<RealtimeEventType> | undefined;
  handler?.(queryClient, event, viewer);
}

/**
 * Applies an event to one cached query. A fetch of that query still under way was answered (or is being
 * answered) from before the event's change, and would put back what the event took away (a deleted
 * message after a reaction's refetch, say, or in the first load of a list) with no later event to
 * correct it. So, as TanStack Query advises for optimistic updates, that fetch is cancelled before the
 * write (its late answer is then dropped) and replaced by a fresh fetch, which the server answers after
 * the change was committed. Cancelling reverts the query to its state before that fetch, synchronously,
 * so the write below lands on the data the fetch would have replaced.
 *
 * `initial` is written when the query holds no data yet, for an event that carries the whole value;
 * without it an event leaves an unloaded query to its (fresh) fetch.
 */
export function updateFromEvent<T>(queryClient: QueryClient, queryKey: QueryKey, update: (data: T) => T, initial?: T): void {
  const inFlight = cancelInFlight(queryClient, queryKey, true);
  const data = queryClient.getQueryData<T>(queryKey);
  if (data !== undefined) queryClient.setQueryData<T>(queryKey, update(data));
  else if (initial !== undefined) queryClient.setQueryData<T>(queryKey, initial);
  // Refetches only what someone shows or has loaded; an unloaded query nobody shows fetches when it is next used.
  if (inFlight) void queryClient.refetchQueries({ queryKey, exact: true });
}

/**
 * For an event that says what changed but does not carry it (figures computed on the server, a journal
 * changed in another tab): every query under `queryKey` is stale. Fetches under way are cancelled first,
 * as in `updateFromEvent`: an invalidation alone lets a first load, or a fetch of a query nobody shows
 * (a prefetch), land after the event with the old answer and mark the query fresh again.
 */
export function reloadFromEvent(queryClient: QueryClient, queryKey: QueryKey): void {
  cancelInFlight(queryClient, queryKey, false);
  void queryClient.invalidateQueries({ queryKey });
}

/** Cancels the fetches under way of `queryKey` (or every query under it); true when there was one. */
function cancelInFlight(queryClient: QueryClient, queryKey: QueryKey, exact: boolean): boolean {
  const inFlight = queryClient.getQueryCache().findAll({ queryKey, exact, fetchStatus: "fetching" }).length > 0;
  // cancelQueries reverts each query at once (its promise only reports when the fetches have settled).
  if (inFlight) void queryClient.cancelQueries({ queryKey, exact, fetchStatus: "fetching" });
  return inFlight;
}
