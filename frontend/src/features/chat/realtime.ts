import type { InfiniteData, QueryClient, QueryKey } from "@tanstack/react-query";
import { insertAt } from "../../lib/pages";
import { reloadFromEvent, updateFromEvent, type EventHandlers, type EventOf } from "../../lib/realtime";
import { chatKeys } from "./queryKeys";
import type { ChatMessage, MessagePage } from "./types";

/** How server events change this feature's cached messages (the events carry the message as the API returns it). */

export type MessagePages = InfiniteData<MessagePage, unknown>;

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

function mineOf(key: QueryKey): boolean {
  const options = key[3];
  return Boolean(options && typeof options === "object" && (options as { mine?: boolean }).mine);
}

function eachMessageQuery(queryClient: QueryClient, roomId: number, apply: (pages: MessagePage[], mine: boolean) => MessagePage[]) {
  for (const { queryKey } of queryClient.getQueryCache().findAll({ queryKey: chatKeys.room(roomId) })) {
    updateFromEvent<MessagePages>(queryClient, queryKey, (data) => ({ ...data, pages: apply(data.pages, mineOf(queryKey)) }));
  }
}

function messageOf(event: EventOf<"chat.message.created" | "chat.message.updated" | "chat.reaction.updated">): ChatMessage {
  const { type: _, ...message } = event;
  return message;
}

function changed(queryClient: QueryClient, event: EventOf<"chat.message.updated" | "chat.reaction.updated">) {
  const message = messageOf(event);
  eachMessageQuery(queryClient, message.roomId, (pages) => updateMessageInPages(pages, message));
}

export const chatEventHandlers: EventHandlers = {
  // Any open grant opens the rooms: a member whose access changed asks for them again.
  "billing.access": (queryClient) => reloadFromEvent(queryClient, chatKeys.all),
  "chat.message.created": (queryClient, event, viewer) => {
    const message = messageOf(event);
    eachMessageQuery(queryClient, message.roomId, (pages, mine) =>
      mine && message.userId !== viewer.id ? pages : upsertMessageInPages(pages, message),
    );
  },
  "chat.message.updated": changed,
  "chat.reaction.updated": changed,
  "chat.message.deleted": (queryClient, event) => {
    eachMessageQuery(queryClient, event.roomId, (pages) => removeMessageFromPages(pages, event.id));
  },
};
