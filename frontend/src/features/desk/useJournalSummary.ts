import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type JournalSummary } from "./types";

/** GET /api/me/journal/summary: what managing cost the customer, on average and by setup. */
export const journalSummaryQueryOptions = queryOptions({
  queryKey: deskKeys.journalSummary,
  queryFn: ({ signal }): Promise<JournalSummary> =>
    unwrap(api.GET("/api/me/journal/summary", { signal }), "Failed to load your journal summary"),
  // Reloaded with the journal (its key lies under the journal's), by events and this app's own edits.
  staleTime: Infinity,
});

export function useJournalSummary() {
  return useQuery(journalSummaryQueryOptions);
}
