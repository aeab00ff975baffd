import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { chatKeys, type ChatMessage, type MessagePage } from "./types";

export const MESSAGE_PAGE_SIZE = 50;

/**
 * GET /api/chat/rooms/{id}/messages: the latest page first, then older pages through
 * `nextCursor` (passed back as `before`). `mine` keeps only the caller's own messages.
 */
export function chatMessagesQueryOptions(roomId: number, mine: boolean) {
  return infiniteQueryOptions({
    queryKey: chatKeys.messages(roomId, mine),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }): Promise<MessagePage> =>
      unwrap(
        api.GET("/api/chat/rooms/{room_id}/messages", {
          params: {
            path: { room_id: roomId },
            query: { limit: MESSAGE_PAGE_SIZE, mine, ...(pageParam === null ? {} : { before: pageParam }) },
          },
          signal,
        }),
        "Failed to get chat messages",
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** Every loaded message, oldest first (pages arrive newest page first). */
export function flattenPages(pages: readonly MessagePage[] | undefined): ChatMessage[] {
  if (!pages) return [];
  return [...pages].reverse().flatMap((page) => page.items);
}

export function useChatMessages(roomId: number, mine: boolean) {
  return useInfiniteQuery(chatMessagesQueryOptions(roomId, mine));
}
