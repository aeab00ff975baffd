import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { trackRecordKeys } from "./queryKeys";

/** GET /api/educators/track-records: every educator's whole record with an equity curve. */
export function trackRecordsQueryOptions() {
  return queryOptions({
    queryKey: trackRecordKeys.list,
    queryFn: ({ signal }) => unwrap(api.GET("/api/educators/track-records", { signal }), "Failed to load track records"),
  });
}

export function useTrackRecords() {
  return useQuery(trackRecordsQueryOptions());
}
