import { queryOptions, skipToken, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { trackRecordKeys } from "./queryKeys";
import type { ChallengeParams } from "./types";

/**
 * GET /api/educators/{id}/challenge: would following the educator's price-checked ideas at this risk pass a
 * funded-account challenge (10,000 simulated runs; the answer names its seed). Not asked while `params` is null.
 */
export function challengeQueryOptions(educatorId: number, params: ChallengeParams | null) {
  return queryOptions({
    queryKey: trackRecordKeys.challenge(educatorId, params),
    queryFn:
      params === null
        ? skipToken
        : ({ signal }) =>
            unwrap(
              api.GET("/api/educators/{educator_id}/challenge", { params: { path: { educator_id: educatorId }, query: params }, signal }),
              "Failed to run the challenge",
            ),
    staleTime: Infinity, // another run of the same inputs is no better an answer: run again only when asked
    retry: false,
  });
}

export function useChallenge(educatorId: number, params: ChallengeParams | null) {
  return useQuery(challengeQueryOptions(educatorId, params));
}
