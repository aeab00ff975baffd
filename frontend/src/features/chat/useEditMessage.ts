import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage } from "./types";
import { refetchRoom, replaceCachedMessage } from "./updateCache";

export interface EditMessageInput {
  messageId: number;
  roomId: number;
  message: string;
}

/** PATCH /api/chat/messages/{id}: change the text of one's own message (marks it edited). */
export function editMessageMutationOptions() {
  return {
    mutationKey: ["chat", "edit-message"] as const,
    mutationFn: ({ messageId, message }: EditMessageInput): Promise<ChatMessage> =>
      unwrap(
        api.PATCH("/api/chat/messages/{message_id}", { params: { path: { message_id: messageId } }, body: { message } }),
        "Failed to update chat message",
      ),
    retry: false,
  };
}

export function useEditMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    ...editMessageMutationOptions(),
    onSuccess: (message) => replaceCachedMessage(queryClient, message),
    onSettled: (_data, _error, input) => refetchRoom(queryClient, input.roomId),
  });
}
