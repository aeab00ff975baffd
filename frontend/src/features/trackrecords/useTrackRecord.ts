import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { trackRecordKeys } from "./queryKeys";
import type { RecordFilters, RecordSource } from "./types";

/**
 * GET /api/educators/{id}/track-record: one educator's record, filtered, with groups and the equity curve, from the
 * educator's calls or from the price checks' verdicts (`source`).
 */
export function trackRecordQueryOptions(educatorId: number, filters: RecordFilters, source: RecordSource = "educator") {
  return queryOptions({
    queryKey: trackRecordKeys.one(educatorId, filters, source),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/educators/{educator_id}/track-record", {
          params: { path: { educator_id: educatorId }, query: { ...filters, ...(source === "verified" ? { source } : {}) } },
          signal,
        }),
        "Failed to load the track record",
      ),
  });
}

export function useTrackRecord(educatorId: number | undefined, filters: RecordFilters, source: RecordSource = "educator") {
  return useQuery({
    ...trackRecordQueryOptions(educatorId ?? 0, filters, source),
    enabled: educatorId !== undefined,
    placeholderData: keepPreviousData, // changing a filter keeps the figures on screen until the new ones arrive
  });
}
