import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage, ReactionKind } from "./types";
import { refetchRoom, replaceCachedMessage } from "./updateCache";

export interface ReactionInput {
  message: ChatMessage;
  kind: ReactionKind;
}

export const addReactionKey = ["chat", "add-reaction"] as const;

/** PUT /api/chat/messages/{id}/reactions/{heart|like}: adds the viewer's reaction (idempotent). Kept offline. */
export function addReactionMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: addReactionKey,
    mutationFn: ({ message, kind }: ReactionInput): Promise<ChatMessage> =>
      unwrap(
        api.PUT("/api/chat/messages/{message_id}/reactions/{kind}", { params: { path: { message_id: message.id, kind } } }),
        "Failed to react",
      ),
    onSuccess: (message: ChatMessage) => replaceCachedMessage(queryClient, message),
    onSettled: (_data: unknown, _error: unknown, input: ReactionInput) => refetchRoom(queryClient, input.message.roomId),
  };
}

export function useAddReaction() {
  return useMutation(addReactionMutationOptions(useQueryClient()));
}
