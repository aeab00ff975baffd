import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { trackRecordKeys } from "./queryKeys";
import type { RecordFilters } from "./types";

/**
 * GET /api/trade-ideas?educatorId&status=closed: the educator's completed ideas (not triggered too), newest first,
 * page by page, in the record's selection (market, idea type, time frame, closed since).
 */
export function completedIdeasQueryOptions(educatorId: number, filters: RecordFilters = {}) {
  return infiniteQueryOptions({
    queryKey: trackRecordKeys.completedIdeas(educatorId, filters),
    queryFn: ({ signal, pageParam }) =>
      unwrap(
        api.GET("/api/trade-ideas", {
          params: { query: { educatorId, status: "closed", limit: 10, cursor: pageParam, ...filters } },
          signal,
        }),
        "Failed to get completed trade ideas",
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useCompletedIdeas(educatorId: number | undefined, filters: RecordFilters = {}) {
  return useInfiniteQuery({ ...completedIdeasQueryOptions(educatorId ?? 0, filters), enabled: educatorId !== undefined });
}
