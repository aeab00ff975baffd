import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { ChatMessage, ReactionKind } from "./types";
import { refetchRoom, replaceCachedMessage } from "./updateCache";

export interface ReactionInput {
  message: ChatMessage;
  kind: ReactionKind;
}

/** PUT /api/chat/messages/{id}/reactions/{heart|like}: adds the viewer's reaction (idempotent). */
export function addReactionMutationOptions() {
  return {
    mutationKey: ["chat", "add-reaction"] as const,
    mutationFn: ({ message, kind }: ReactionInput): Promise<ChatMessage> =>
      unwrap(
        api.PUT("/api/chat/messages/{message_id}/reactions/{kind}", { params: { path: { message_id: message.id, kind } } }),
        "Failed to react",
      ),
  };
}

export function useAddReaction() {
  const queryClient = useQueryClient();
  return useMutation({
    ...addReactionMutationOptions(),
    onSuccess: (message) => replaceCachedMessage(queryClient, message),
    onSettled: (_data, _error, input) => refetchRoom(queryClient, input.message.roomId),
  });
}
