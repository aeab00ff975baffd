import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { refetchRoom } from "./updateCache";

export interface DeleteMessageInput {
  messageId: number;
  roomId: number;
}

/** DELETE /api/chat/messages/{id} (204): hides one's own message from everyone. */
export function deleteMessageMutationOptions() {
  return {
    mutationKey: ["chat", "delete-message"] as const,
    mutationFn: async ({ messageId }: DeleteMessageInput): Promise<void> => {
      await unwrap(api.DELETE("/api/chat/messages/{message_id}", { params: { path: { message_id: messageId } } }), "Failed to delete chat message");
    },
    retry: false,
  };
}

export function useDeleteMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    ...deleteMessageMutationOptions(),
    onSettled: (_data, _error, input) => refetchRoom(queryClient, input.roomId),
  });
}
