import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideaKeys, type IdeaFilters } from "./queryKeys";
import type { IdeaPage } from "./types";

export type { IdeaFilters };

const FETCH_FAILED = "Failed to fetch trade ideas";

function fetchPage(filters: IdeaFilters, cursor: string | undefined, signal: AbortSignal): Promise<IdeaPage> {
  return unwrap(api.GET("/api/trade-ideas", { params: { query: { ...filters, cursor } }, signal }), FETCH_FAILED);
}

/** GET /api/trade-ideas: the first page of ideas matching `filters`, newest first. */
export function tradeIdeasQueryOptions(filters: IdeaFilters) {
  return queryOptions({
    queryKey: ideaKeys.list(filters),
    queryFn: ({ signal }) => fetchPage(filters, undefined, signal),
  });
}

/** GET /api/trade-ideas, page after page (nextCursor). */
export function tradeIdeasInfiniteQueryOptions(filters: IdeaFilters) {
  return infiniteQueryOptions({
    queryKey: ideaKeys.pages(filters),
    queryFn: ({ signal, pageParam }) => fetchPage(filters, pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export function useTradeIdeas(filters: IdeaFilters, enabled = true) {
  return useQuery({ ...tradeIdeasQueryOptions(filters), enabled });
}

export function useTradeIdeasInfinite(filters: IdeaFilters) {
  return useInfiniteQuery(tradeIdeasInfiniteQueryOptions(filters));
}
