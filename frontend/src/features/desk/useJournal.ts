import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type Journal } from "./types";

/** GET /api/me/journal: the customer's entries (newest first) with results and totals. */
export const journalQueryOptions = queryOptions({
  queryKey: deskKeys.journal,
  queryFn: ({ signal }): Promise<Journal> => unwrap(api.GET("/api/me/journal", { signal }), "Failed to load your journal"),
  // Kept exact by events (see realtime.ts) and this app's own edits: every new idea card reads it, and a
  // time-based refetch there would make every open tab call the server when an idea is published.
  staleTime: Infinity,
});

export function useJournal(enabled = true) {
  return useQuery({ ...journalQueryOptions, enabled });
}

/** Idea id → the newest journal entry for it (the cards' "Taken" marker and "open the existing one"). */
export function useTakenEntries(enabled = true): ReadonlyMap<number, number> {
  const { data } = useQuery({
    ...journalQueryOptions,
    enabled,
    // Entries come newest first: the first one seen for an idea is its newest.
    select: (journal) => {
      const taken = new Map<number, number>();
      for (const e of journal.entries) if (e.ideaId !== null && !taken.has(e.ideaId)) taken.set(e.ideaId, e.id);
      return taken;
    },
  });
  return data ?? EMPTY;
}

const EMPTY: ReadonlyMap<number, number> = new Map();
