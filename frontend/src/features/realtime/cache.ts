import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";
import type { Schemas } from "../../api/client";
import { chatKeys, ideaKeys, ideasKey, unseenCountsKey, type IdeaFilters } from "../../lib/queryKeys";

/**
 * Pure functions that apply one server event to cached query data, and the one function
 * (applyRealtimeEvent) that runs them over the TanStack Query cache. Nothing here refetches
 * the lists: the event carries the changed object as the API returns it.
 */

export type Idea = Schemas["IdeaOut"];
export type IdeaPage = Schemas["IdeaPage"];
export type ChatMessage = Schemas["MessageOut"];
export type MessagePage = Schemas["MessagePage"];
export type IdeaPages = InfiniteData<IdeaPage, unknown>;
export type MessagePages = InfiniteData<MessagePage, unknown>;

export const EVENT_TYPES = [
  "idea.created",
  "idea.updated",
  "idea.status",
  "idea.deleted",
  "chat.message.created",
  "chat.message.updated",
  "chat.message.deleted",
  "chat.reaction.updated",
  "ideas.seen",
  "resync",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface RealtimeEvent {
  type: EventType;
  data: unknown;
}

/** Who is watching: customers get NEW tags on fresh ideas; `mine` message lists keep the viewer's own only. */
export interface Viewer {
  id: number;
  role: "customer" | "educator";
}

// ---------------------------------------------------------------- ideas

/** Ideas that left the active lists (history shows these). */
export const COMPLETED_STATUSES: ReadonlySet<Idea["status"]> = new Set(["successful", "unsuccessful"]);

/** Does `idea` belong in a list fetched with `filters` (same rules as GET /api/trade-ideas)? */
export function ideaMatches(filters: IdeaFilters, idea: Idea): boolean {
  if (filters.market && idea.market !== filters.market) return false;
  if (filters.ideaType && idea.ideaType.toLowerCase() !== filters.ideaType) return false;
  if (filters.educatorId !== undefined && idea.educatorId !== filters.educatorId) return false;
  const completed = COMPLETED_STATUSES.has(idea.status);
  if (filters.status === "active" && completed) return false;
  if (filters.status === "completed" && !completed) return false;
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

/** Inserts `item` at position `index` of page `pageIndex` (copying only what changes). */
function insertAt<T, P extends { items: T[] }>(pages: readonly P[], pageIndex: number, index: number, item: T): P[] {
  return pages.map((page, p) => {
    if (p !== pageIndex) return page;
    const items = [...page.items];
    items.splice(index, 0, item);
    return { ...page, items };
  });
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

/** For a customer, a freshly published idea is NEW until seen. */
export function asCreatedFor(viewer: Viewer, idea: Idea): Idea {
  if (viewer.role !== "customer") return idea;
  return { ...idea, isNew: !COMPLETED_STATUSES.has(idea.status) };
}

// ---------------------------------------------------------------- chat

/**
 * Takes a changed message from an event. `hearted` / `liked` in an event describe whoever made the
 * change, not this viewer, so the cached viewer flags stay; counts and content come from the event.
 */
export function mergeMessage(cached: ChatMessage, incoming: Partial<ChatMessage>): ChatMessage {
  return { ...cached, ...incoming, hearted: cached.hearted, liked: cached.liked };
}

/** A new message seen through someone else's eyes: this viewer has not reacted to it. */
function fresh(message: ChatMessage): ChatMessage {
  return { ...message, hearted: false, liked: false };
}

/** Pages arrive newest page first; each page's items are oldest first. */
export function upsertMessageInPages(pages: readonly MessagePage[], message: ChatMessage): MessagePage[] {
  let found = false;
  const next = pages.map((page) => {
    if (!page.items.some((item) => item.id === message.id)) return page;
    found = true;
    return { ...page, items: page.items.map((item) => (item.id === message.id ? mergeMessage(item, message) : item)) };
  });
  if (found) return next;
  // Find the page whose id range takes it; newer than all goes last in the newest page.
  for (const [p, page] of next.entries()) {
    const oldest = page.items[0];
    if (!oldest || message.id > oldest.id) {
      const i = page.items.findIndex((item) => item.id > message.id);
      return insertAt(next, p, i < 0 ? page.items.length : i, fresh(message));
    }
  }
  const last = next.at(-1);
  if (!last || last.nextCursor !== null) return next; // older than everything loaded
  return insertAt(next, next.length - 1, 0, fresh(message));
}

/** Applies a change (edit, reaction counts) to a message that is already cached; never inserts. */
export function updateMessageInPages(pages: readonly MessagePage[], change: Partial<ChatMessage> & { id: number }): MessagePage[] {
  return pages.map((page) =>
    page.items.some((item) => item.id === change.id)
      ? { ...page, items: page.items.map((item) => (item.id === change.id ? mergeMessage(item, change) : item)) }
      : page,
  );
}

export function removeMessageFromPages(pages: readonly MessagePage[], messageId: number): MessagePage[] {
  return pages.map((page) =>
    page.items.some((item) => item.id === messageId) ? { ...page, items: page.items.filter((item) => item.id !== messageId) } : page,
  );
}

// ---------------------------------------------------------------- the cache

function filtersOf(key: QueryKey): IdeaFilters {
  const filters = key[2];
  return filters && typeof filters === "object" ? (filters as IdeaFilters) : {};
}

function mineOf(key: QueryKey): boolean {
  const options = key[3];
  return Boolean(options && typeof options === "object" && (options as { mine?: boolean }).mine);
}

function roomOf(key: QueryKey): number | undefined {
  return typeof key[2] === "number" ? key[2] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function idOf(data: unknown): number | null {
  if (!isObject(data)) return null;
  const id = data.id ?? data.messageId ?? data.ideaId;
  return typeof id === "number" ? id : null;
}

function isIdea(data: unknown): data is Idea {
  return isObject(data) && typeof data.id === "number" && typeof data.status === "string" && typeof data.market === "string";
}

function isMessage(data: unknown): data is ChatMessage {
  return isObject(data) && typeof data.id === "number" && typeof data.roomId === "number" && typeof data.userId === "number";
}

function eachIdeaQuery(queryClient: QueryClient, idea: Idea | null, ideaId: number) {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.lists })) {
    const data = query.state.data as IdeaPage | undefined;
    if (!data) continue;
    const filters = filtersOf(query.queryKey);
    const next = idea ? upsertIdeaInList(data, filters, idea) : { ...data, items: data.items.filter((item) => item.id !== ideaId) };
    queryClient.setQueryData(query.queryKey, next);
  }
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ideaKeys.pagesAll })) {
    const data = query.state.data as IdeaPages | undefined;
    if (!data) continue;
    const filters = filtersOf(query.queryKey);
    const pages = idea ? upsertIdeaInPages(data.pages, filters, idea) : removeIdeaFromPages(data.pages, ideaId);
    queryClient.setQueryData<IdeaPages>(query.queryKey, { ...data, pages });
  }
}

function eachMessageQuery(queryClient: QueryClient, roomId: number | undefined, apply: (pages: MessagePage[], mine: boolean) => MessagePage[]) {
  const queryKey = roomId === undefined ? chatKeys.messagesAll : chatKeys.room(roomId);
  for (const query of queryClient.getQueryCache().findAll({ queryKey })) {
    const data = query.state.data as MessagePages | undefined;
    if (!data) continue;
    if (roomId === undefined && roomOf(query.queryKey) === undefined) continue;
    queryClient.setQueryData<MessagePages>(query.queryKey, { ...data, pages: apply(data.pages, mineOf(query.queryKey)) });
  }
}

/** Applies one server event to every matching cache entry. Unknown or malformed events are ignored. */
export function applyRealtimeEvent(queryClient: QueryClient, event: RealtimeEvent, viewer: Viewer): void {
  const { type, data } = event;
  switch (type) {
    case "idea.created": {
      if (!isIdea(data)) return;
      eachIdeaQuery(queryClient, asCreatedFor(viewer, data), data.id);
      if (viewer.role === "customer") void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      return;
    }
    case "idea.updated":
    case "idea.status": {
      if (!isIdea(data)) return;
      eachIdeaQuery(queryClient, data, data.id);
      void queryClient.invalidateQueries({ queryKey: ideaKeys.revisions(data.id) });
      if (type === "idea.status" && viewer.role === "customer") void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      return;
    }
    case "idea.deleted": {
      const id = idOf(data);
      if (id === null) return;
      eachIdeaQuery(queryClient, null, id);
      queryClient.removeQueries({ queryKey: ideaKeys.revisions(id) });
      if (viewer.role === "customer") void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      return;
    }
    case "chat.message.created": {
      if (!isMessage(data)) return;
      eachMessageQuery(queryClient, data.roomId, (pages, mine) =>
        mine && data.userId !== viewer.id ? pages : upsertMessageInPages(pages, data),
      );
      return;
    }
    case "chat.message.updated":
    case "chat.reaction.updated": {
      const id = idOf(data);
      if (id === null || !isObject(data)) return;
      const change: Partial<ChatMessage> & { messageId?: number } = { ...data };
      delete change.messageId;
      const roomId = typeof data.roomId === "number" ? data.roomId : undefined;
      eachMessageQuery(queryClient, roomId, (pages) => updateMessageInPages(pages, { ...change, id }));
      return;
    }
    case "chat.message.deleted": {
      const id = idOf(data);
      if (id === null || !isObject(data)) return;
      const roomId = typeof data.roomId === "number" ? data.roomId : undefined;
      eachMessageQuery(queryClient, roomId, (pages) => removeMessageFromPages(pages, id));
      return;
    }
    case "ideas.seen": {
      // This customer marked ideas seen in another tab or on another device: the badges follow.
      if (!isObject(data) || !["forex", "crypto", "total"].every((k) => typeof data[k] === "number")) return;
      queryClient.setQueryData(unseenCountsKey, { forex: data.forex, crypto: data.crypto, total: data.total });
      return;
    }
    case "resync": {
      // Away too long for a replay: reload what is on screen.
      void queryClient.invalidateQueries({ queryKey: ideasKey });
      void queryClient.invalidateQueries({ queryKey: chatKeys.all });
      void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      return;
    }
  }
}
