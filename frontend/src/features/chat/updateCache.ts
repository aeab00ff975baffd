import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { chatKeys, type ChatMessage, type MessagePage } from "./types";

/** Puts a changed message (as the server returned it) into every cached page of its room. */
export function replaceCachedMessage(queryClient: QueryClient, message: ChatMessage) {
  queryClient.setQueriesData<InfiniteData<MessagePage, number | null>>({ queryKey: chatKeys.room(message.roomId) }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === message.id ? message : item)),
          })),
        }
      : data,
  );
}

/** Refetches a room's messages (realtime comes later; there is no polling). */
export function refetchRoom(queryClient: QueryClient, roomId: number) {
  return queryClient.invalidateQueries({ queryKey: chatKeys.room(roomId) });
}
