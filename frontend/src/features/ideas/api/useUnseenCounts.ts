import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { unseenCountsKey, type UnseenCounts } from "./types";

/** GET /api/me/unseen-counts: unseen open ideas per market (0 where notifications are off). */
export const unseenCountsQueryOptions = queryOptions({
  queryKey: unseenCountsKey,
  queryFn: ({ signal }): Promise<UnseenCounts> => unwrap(api.GET("/api/me/unseen-counts", { signal }), "Failed to load new ideas"),
  staleTime: 30 * 1000,
});

export function useUnseenCounts(enabled = true) {
  return useQuery({ ...unseenCountsQueryOptions, enabled });
}
