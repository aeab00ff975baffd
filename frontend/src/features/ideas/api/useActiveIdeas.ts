import type { Market } from "../../../lib/session";
import type { Idea } from "./types";
import { tradeIdeasQueryOptions } from "./useTradeIdeas";

/** The open ideas of a market that customers see (first page of GET /api/trade-ideas?status=active). */
export function activeIdeasQueryOptions(market: Market) {
  return tradeIdeasQueryOptions({ market, status: "active", limit: 100 });
}

/** An invalidated idea stays on the active list (with its INVALID tag) for this long after it was invalidated. */
export const INVALIDATED_SHOWN_MS = 24 * 60 * 60 * 1000;

/**
 * The active list as customers see it: live ideas unseen first, then newest first; invalidated ones after every
 * live one, never NEW, and gone 24 h after they were invalidated (stable).
 */
export function unseenFirst(ideas: readonly Idea[], now = Date.now()): Idea[] {
  const time = (i: Idea) => new Date(i.createdAt).getTime() || 0;
  const invalid = (i: Idea) => i.status === "invalidated";
  const shown = ideas
    .filter((i) => !invalid(i) || !i.closedAt || now - new Date(i.closedAt).getTime() < INVALIDATED_SHOWN_MS)
    .map((i) => (invalid(i) && i.isNew ? { ...i, isNew: false } : i));
  return shown.sort(
    (a, b) => Number(invalid(a)) - Number(invalid(b)) || Number(Boolean(b.isNew)) - Number(Boolean(a.isNew)) || time(b) - time(a) || b.id - a.id,
  );
}
