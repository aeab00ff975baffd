import { ideasKey, unseenCountsKey } from "../../../lib/notificationSettings";
import type { IdeaType, Market } from "../../../lib/session";

/** Query keys of the ideas feature (its realtime handlers write server events into the same entries). */

/** Filters of GET /api/trade-ideas, part of the ideas list query keys. */
export interface IdeaFilters {
  market?: Market;
  ideaType?: IdeaType;
  status?: "active" | "completed";
  educatorId?: number;
  /** Only ideas with a lesson (the history's "With a lesson" filter). */
  lesson?: boolean;
  limit?: number;
}

/** Every query of the ideas feature starts with `ideasKey`, so a mutation can refresh them all. It and the unseen counts
 * key are defined in lib/notificationSettings.ts: a change of the notification settings refreshes both. */
export { ideasKey, unseenCountsKey };

export const ideaKeys = {
  all: ideasKey,
  /** First page only (data: IdeaPage). */
  lists: ["ideas", "list"] as const,
  list: (filters: IdeaFilters) => ["ideas", "list", filters] as const,
  /** Page after page (data: InfiniteData<IdeaPage>). */
  pagesAll: ["ideas", "pages"] as const,
  pages: (filters: IdeaFilters) => ["ideas", "pages", filters] as const,
  revisions: (id: number) => ["ideas", "revisions", id] as const,
  detail: (id: number) => ["ideas", "detail", id] as const,
  candles: (id: number) => ["ideas", "candles", id] as const,
};


/** An educator's setups: the caller's own list (profile, idea form) and any educator's (their cards and record). */
export const setupsKey = ["setups"] as const;
export const setupKeys = {
  all: setupsKey,
  mine: ["setups", "mine"] as const,
  educator: (educatorId: number) => ["setups", "educator", educatorId] as const,
};
