import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Schemas } from "../../../api/client";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideaKeys } from "./queryKeys";

export type IdeaCandles = Schemas["CandlesOut"];

/** GET /api/trade-ideas/{id}/candles: the symbol's stored candles from an hour before publishing to settlement. */
export function ideaCandlesQueryOptions(id: number) {
  return queryOptions({
    queryKey: ideaKeys.candles(id),
    queryFn: ({ signal }): Promise<IdeaCandles> =>
      unwrap(api.GET("/api/trade-ideas/{idea_id}/candles", { params: { path: { idea_id: id } }, signal }), "Failed to load prices"),
  });
}

export function useIdeaCandles(id: number) {
  return useQuery(ideaCandlesQueryOptions(id));
}
