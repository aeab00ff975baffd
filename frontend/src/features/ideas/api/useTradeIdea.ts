import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, type Idea } from "./types";

/** GET /api/trade-ideas/{id}: one idea (the edit form loads it). Under ["ideas"], so idea events refresh it. */
export function tradeIdeaQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...ideasKey, "detail", id] as const,
    queryFn: ({ signal }): Promise<Idea> =>
      unwrap(api.GET("/api/trade-ideas/{idea_id}", { params: { path: { idea_id: id } }, signal }), "Failed to fetch trade ideas"),
  });
}

export function useTradeIdea(id: number) {
  return useQuery(tradeIdeaQueryOptions(id));
}
