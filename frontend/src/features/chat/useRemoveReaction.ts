import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage } from "./types";
import type { ReactionInput } from "./useAddReaction";
import { refetchRoom, replaceCachedMessage } from "./updateCache";

export const removeReactionKey = ["chat", "remove-reaction"] as const;

/** DELETE /api/chat/messages/{id}/reactions/{heart|like}: removes the viewer's reaction (idempotent). Kept offline. */
export function removeReactionMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: removeReactionKey,
    mutationFn: ({ message, kind }: ReactionInput): Promise<ChatMessage> =>
      unwrap(
        api.DELETE("/api/chat/messages/{message_id}/reactions/{kind}", { params: { path: { message_id: message.id, kind } } }),
        "Failed to react",
      ),
    onSuccess: (message: ChatMessage) => replaceCachedMessage(queryClient, message),
    onSettled: (_data: unknown, _error: unknown, input: ReactionInput) => refetchRoom(queryClient, input.message.roomId),
  };
}

export function useRemoveReaction() {
  return useMutation(removeReactionMutationOptions(useQueryClient()));
}
