import type { ChallengeParams, RecordFilters } from "./types";

/** Every query of this feature starts with `trackRecordsKey`: one invalidation refreshes them all. */
export const trackRecordsKey = ["track-records"] as const;

export const trackRecordKeys = {
  list: [...trackRecordsKey, "list"] as const,
  one: (educatorId: number, filters: RecordFilters, source: "educator" | "verified" = "educator") =>
    [...trackRecordsKey, "one", educatorId, filters, source] as const,
  challenge: (educatorId: number, params: ChallengeParams | null) => [...trackRecordsKey, "challenge", educatorId, params] as const,
  completedIdeas: (educatorId: number, filters: RecordFilters = {}) =>
    [...trackRecordsKey, "completed-ideas", educatorId, filters] as const,
};
