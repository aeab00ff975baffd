import type { Market } from "../../lib/session";
import type { Idea } from "./types";
import { tradeIdeasQueryOptions } from "./useTradeIdeas";

/** The open ideas of a market that customers see (first page of GET /api/trade-ideas?status=active). */
export function activeIdeasQueryOptions(market: Market) {
  return tradeIdeasQueryOptions({ market, status: "active", limit: 100 });
}

/** Unseen first, then newest first (stable). */
export function unseenFirst(ideas: readonly Idea[]): Idea[] {
  const time = (i: Idea) => new Date(i.createdAt).getTime() || 0;
  return [...ideas].sort((a, b) => Number(Boolean(b.isNew)) - Number(Boolean(a.isNew)) || time(b) - time(a) || b.id - a.id);
}
