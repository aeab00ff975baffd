import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { trackRecordKeys } from "./queryKeys";

/** GET /api/trade-ideas?educatorId&status=closed: the educator's completed ideas (not triggered too), newest first, page by page. */
export function completedIdeasQueryOptions(educatorId: number) {
  return infiniteQueryOptions({
    queryKey: trackRecordKeys.completedIdeas(educatorId),
    queryFn: ({ signal, pageParam }) =>
      unwrap(
        api.GET("/api/trade-ideas", {
          params: { query: { educatorId, status: "closed", limit: 10, cursor: pageParam } },
          signal,
        }),
        "Failed to get completed trade ideas",
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useCompletedIdeas(educatorId: number | undefined) {
  return useInfiniteQuery({ ...completedIdeasQueryOptions(educatorId ?? 0), enabled: educatorId !== undefined });
}
