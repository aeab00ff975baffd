import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage } from "./types";
import type { ReactionInput } from "./useAddReaction";
import { refetchRoom, replaceCachedMessage } from "./updateCache";

/** DELETE /api/chat/messages/{id}/reactions/{heart|like}: removes the viewer's reaction (idempotent). */
export function removeReactionMutationOptions() {
  return {
    mutationKey: ["chat", "remove-reaction"] as const,
    mutationFn: ({ message, kind }: ReactionInput): Promise<ChatMessage> =>
      unwrap(
        api.DELETE("/api/chat/messages/{message_id}/reactions/{kind}", { params: { path: { message_id: message.id, kind } } }),
        "Failed to react",
      ),
  };
}

export function useRemoveReaction() {
  const queryClient = useQueryClient();
  return useMutation({
    ...removeReactionMutationOptions(),
    onSuccess: (message) => replaceCachedMessage(queryClient, message),
    onSettled: (_data, _error, input) => refetchRoom(queryClient, input.message.roomId),
  });
}
