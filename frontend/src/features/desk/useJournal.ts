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

/** Ids of the ideas with an entry in the journal (the cards' "Taken" marker). */
export function useTakenIdeaIds(): ReadonlySet<number> {
  const { data } = useQuery({
    ...journalQueryOptions,
    select: (journal) => new Set(journal.entries.flatMap((e) => (e.ideaId === null ? [] : [e.ideaId]))),
  });
  return data ?? EMPTY;
}

const EMPTY: ReadonlySet<number> = new Set();
