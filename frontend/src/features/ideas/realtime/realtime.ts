import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { insertAt } from "../../../lib/pages";
import { reloadFromEvent, updateFromEvent, type EventHandlers, type EventOf, type Viewer } from "../../../lib/realtime";
import { notificationSettingsKey, notifiedAbout, type NotificationSettings } from "../../../lib/notificationSettings";
import { ideaKeys, ideasKey, setupKeys, unseenCountsKey, type IdeaFilters } from "../api/queryKeys";
import type { Idea, IdeaPage, UnseenCounts } from "../api/types";
import type { InfiniteData } from "@tanstack/react-query";

/**
 * How server events change this feature's cached data. The events carry the changed idea as the API
 * returns it, so nothing here refetches the lists; unseen counts are kept up to date from the events
 * too (a new idea published to thousands of customers must not make each of them call the server).
 */

export type IdeaPages = InfiniteData<IdeaPage, unknown>;

/** Does `idea` belong in a list fetched with `filters`? Which statuses count as completed is the server's
 * call (`idea.completed`); the other filters are the idea's own fields. */
export function ideaMatches(filters: IdeaFilters, idea: Idea): boolean {
  if (filters.market && idea.market !== filters.market) return false;
  if (filters.ideaType && idea.ideaType.toLowerCase() !== filters.ideaType) return false;
  if (filters.educatorId !== undefined && idea.educatorId !== filters.educatorId) return false;
  if (filters.status === "active" && idea.completed) return false;
  if (filters.status === "completed" && !idea.completed) return false;
  if (filters.lesson && idea.lesson === null) return false;
  return true;
}

const time = (idea: Idea) => new Date(idea.createdAt).getTime() || 0;

/** Server order: newest first, ties by id descending. True when `a` comes before `b`. */
function before(a: Idea, b: Idea): boolean {
  return time(a) > time(b) || (time(a) === time(b) && a.id > b.id);
}

/** Keeps what the event cannot know about this viewer (the NEW tag is per customer). */
export function mergeIdea(cached: Idea, incoming: Idea): Idea {
  return { ...incoming, isNew: incoming.isNew ?? cached.isNew };
}

/** Where an idea goes in pages of a list: [page, index], or null when it belongs to a page not loaded yet. */
function slotIn(pages: readonly IdeaPage[], idea: Idea): [number, number] | null {
  for (const [p, page] of pages.entries()) {
    const i = page.items.findIndex((item) => before(idea, item));
    if (i >= 0) return [p, i];
  }
  const last = pages.at(-1);
  if (!last || last.nextCursor) return null; // older than everything loaded: the next page brings it
  return [pages.length - 1, last.items.length];
}

/** Applies an idea that was created or changed to the pages of one list (insert, replace or remove). */
export function upsertIdeaInPages(pages: readonly IdeaPage[], filters: IdeaFilters, idea: Idea): IdeaPage[] {
  const matches = ideaMatches(filters, idea);
  let found = false;
  const next = pages.map((page) => {
    if (!page.items.some((item) => item.id === idea.id)) return page;
    found = true;
    const items = matches
      ? page.items.map((item) => (item.id === idea.id ? mergeIdea(item, idea) : item))
      : page.items.filter((item) => item.id !== idea.id);
    return { ...page, items };
  });
  if (found || !matches) return next;
  const slot = slotIn(next, idea);
  return slot ? insertAt(next, slot[0], slot[1], idea) : next;
}

export function removeIdeaFromPages(pages: readonly IdeaPage[], ideaId: number): IdeaPage[] {
  return pages.map((page) =>
    page.items.some((item) => item.id === ideaId) ? { ...page, items: page.items.filter((item) => item.id !== ideaId) } : page,
  );
}

/** One first-page list (limit kept). */
export function upsertIdeaInList(page: IdeaPage, filters: IdeaFilters, idea: Idea): IdeaPage {
  // A first page without a cursor is the whole list; with one, older ideas are simply not shown.
  const items = upsertIdeaInPages([{ ...page, nextCursor: null }], filters, idea)[0]?.items ?? page.items;
  return { ...page, items: filters.limit !== undefined && items.length > filters.limit ? items.slice(0, filters.limit) : items };
}



// ---------------------------------------------------------------- the cache

function filtersOf(key: QueryKey): IdeaFilters {
  const filters = key[2];
  return filters && typeof filters === "object" ? (filters as IdeaFilters) : {};
}

function eachIdeaQuery(queryClient: QueryClient, idea: Idea | null, ideaId: number) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.lists })) {
    const filters = filtersOf(query.queryKey);
    updateFromEvent<IdeaPage>(queryClient, query.queryKey, (data) =>
      idea ? upsertIdeaInList(data, filters, idea) : { ...data, items: data.items.filter((item) => item.id !== ideaId) },
    );
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.pagesAll })) {
    const filters = filtersOf(query.queryKey);
    updateFromEvent<IdeaPages>(queryClient, query.queryKey, (data) => ({
      ...data,
      pages: idea ? upsertIdeaInPages(data.pages, filters, idea) : removeIdeaFromPages(data.pages, ideaId),
    }));
  }
}

/** The NEW tag this viewer's cached lists show for an idea: true / false, or undefined when not cached. */
function cachedNewTag(queryClient: QueryClient, ideaId: number): boolean | undefined {
  for (const [, data] of queryClient.getQueriesData<IdeaPage | IdeaPages>({ queryKey: ideasKey })) {
    const pages = data && "pages" in data ? data.pages : data ? [data] : [];
    for (const page of pages) {
      const found = page.items?.find((item) => item.id === ideaId);
      if (found && typeof found.isNew === "boolean") return found.isNew;
    }
  }
  return undefined;
}

/** Adds `delta` to the customer's unseen count of `market` (no-op when the counts are not loaded). */
function addUnseen(queryClient: QueryClient, market: Idea["market"], delta: number) {
  updateFromEvent<UnseenCounts>(queryClient, unseenCountsKey, (counts) => {
    const next = { ...counts, [market]: Math.max(0, counts[market] + delta) };
    return { ...next, total: next.forex + next.crypto };
  });
}


/** An idea left the unseen set (completed or deleted): a NEW one lowers the count; unknown ones ask the server. */
function leftUnseen(queryClient: QueryClient, viewer: Viewer, ideaId: number, market: Idea["market"]) {
  if (viewer.role !== "customer") return;
  const wasNew = cachedNewTag(queryClient, ideaId);
  if (wasNew === true) addUnseen(queryClient, market, -1);
  else if (wasNew === undefined) reloadFromEvent(queryClient, unseenCountsKey);
}

function ideaOf(event: EventOf<"idea.created" | "idea.updated" | "idea.status">): Idea {
  const { type: _, ...idea } = event;
  return idea;
}

/** For a customer, a freshly published idea is NEW until seen, when its market and educator are switched on. */
function created(queryClient: QueryClient, event: EventOf<"idea.created">, viewer: Viewer) {
  const idea = ideaOf(event);
  if (viewer.role !== "customer") {
    eachIdeaQuery(queryClient, idea, idea.id);
    return;
  }
  // The notification settings (features/notifications) are read from the cache they share (lib/notificationSettings).
  const notified = notifiedAbout(queryClient.getQueryData<NotificationSettings>(notificationSettingsKey), idea.market, idea.educatorId);
  const isNew = !idea.completed && notified !== false;
  eachIdeaQuery(queryClient, { ...idea, isNew }, idea.id);
  if (notified === undefined) reloadFromEvent(queryClient, unseenCountsKey);
  else if (isNew) addUnseen(queryClient, idea.market, 1);
}

function changed(queryClient: QueryClient, event: EventOf<"idea.updated" | "idea.status">, viewer: Viewer) {
  const idea = ideaOf(event);
  if (event.type === "idea.status" && idea.completed) leftUnseen(queryClient, viewer, idea.id, idea.market);
  eachIdeaQuery(queryClient, idea, idea.id);
  reloadFromEvent(queryClient, ideaKeys.revisions(idea.id)); // the event carries the idea, not its revision list
}

/** A price check moved: the idea's `verification` changes wherever the idea is cached (lists, pages, its own page). */
function verified(queryClient: QueryClient, event: EventOf<"idea.verification">) {
  const patch = (idea: Idea): Idea => (idea.id === event.id ? { ...idea, verification: event.verification } : idea);
  const inPage = (page: IdeaPage): IdeaPage =>
    page.items.some((item) => item.id === event.id) ? { ...page, items: page.items.map(patch) } : page;
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.lists })) {
    updateFromEvent<IdeaPage>(queryClient, query.queryKey, inPage);
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.pagesAll })) {
    updateFromEvent<IdeaPages>(queryClient, query.queryKey, (data) => ({ ...data, pages: data.pages.map(inPage) }));
  }
  updateFromEvent<Idea>(queryClient, ideaKeys.detail(event.id), patch);
  reloadFromEvent(queryClient, ideaKeys.candles(event.id)); // the chart gains the candles that made the step
}

export const ideaEventHandlers: EventHandlers = {
  "idea.verification": verified,
  "idea.created": created,
  "idea.updated": changed,
  "idea.status": changed,
  "idea.deleted": (queryClient, event, viewer) => {
    leftUnseen(queryClient, viewer, event.id, event.market);
    eachIdeaQuery(queryClient, null, event.id);
    queryClient.removeQueries({ queryKey: ideaKeys.revisions(event.id) });
  },
  "setups.changed": (queryClient, event) => {
    // A renamed setup shows its new name on every idea that names it; the lists carry the name, not the event.
    reloadFromEvent(queryClient, setupKeys.mine);
    reloadFromEvent(queryClient, setupKeys.educator(event.educatorId));
    reloadFromEvent(queryClient, ideaKeys.all);
  },
  // The member's paid access changed (a grant made, revoked, renewed or run out): every idea list, idea page and count
  // is asked again, and the server's answers hold exactly the educators now open, so their ideas leave or arrive
  // on the open screen. A reload, not an update: the event does not say which educators.
  "billing.access": (queryClient) => {
    reloadFromEvent(queryClient, ideasKey);
    reloadFromEvent(queryClient, unseenCountsKey);
  },
  "ideas.seen": (queryClient, event) => {
    // This customer marked ideas seen, or changed notification settings, in another tab or device.
    const counts = { forex: event.forex, crypto: event.crypto, total: event.total };
    updateFromEvent<UnseenCounts>(queryClient, unseenCountsKey, () => counts, counts);
  },
};
