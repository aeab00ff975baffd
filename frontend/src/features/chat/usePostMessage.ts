import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage } from "./types";
import { refetchRoom } from "./updateCache";

export interface PostMessageInput {
  roomId: number;
  message: string;
  imageId?: number;
}

/** POST /api/chat/rooms/{id}/messages (educators): text, an image, or both. */
export function postMessageMutationOptions() {
  return {
    mutationKey: ["chat", "post-message"] as const,
    mutationFn: ({ roomId, message, imageId }: PostMessageInput): Promise<ChatMessage> =>
      unwrap(
        api.POST("/api/chat/rooms/{room_id}/messages", {
          params: { path: { room_id: roomId } },
          body: { message, ...(imageId === undefined ? {} : { imageId }) },
        }),
        "Failed to send chat message",
      ),
    retry: false,
  };
}

export function usePostMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    ...postMessageMutationOptions(),
    onSettled: (_data, _error, input) => refetchRoom(queryClient, input.roomId),
  });
}
