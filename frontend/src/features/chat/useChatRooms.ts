import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { chatKeys, type ChatRoom } from "./types";

/** GET /api/chat/rooms: Leverage Ideas and Exchange Ideas, oldest first. */
export const chatRoomsQueryOptions = queryOptions({
  queryKey: chatKeys.rooms,
  queryFn: ({ signal }): Promise<ChatRoom[]> => unwrap(api.GET("/api/chat/rooms", { signal }), "Failed to get chat rooms"),
});

export function useChatRooms() {
  return useQuery(chatRoomsQueryOptions);
}
