import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, type Idea, type IdeaUpdate } from "./types";

/** PATCH /api/trade-ideas/{id}: change any subset of an own idea's fields. */
export function updateIdeaMutationOptions() {
  return {
    mutationKey: [...ideasKey, "update"] as const,
    mutationFn: ({ id, body }: { id: number; body: IdeaUpdate }): Promise<Idea> =>
      unwrap(api.PATCH("/api/trade-ideas/{idea_id}", { params: { path: { idea_id: id } }, body }), "Failed to update trade idea"),
    retry: false,
  };
}

export function useUpdateIdea() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateIdeaMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ideasKey }),
  });
}
