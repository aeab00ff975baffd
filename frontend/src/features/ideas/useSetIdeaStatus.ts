import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { IdeaStatus } from "../../lib/ideaStatus";
import { ideasKey, type Idea } from "./types";

/** PUT /api/trade-ideas/{id} {status}: mark successful / unsuccessful / invalidated, or reset to active. */
export function setIdeaStatusMutationOptions() {
  return {
    mutationKey: [...ideasKey, "status"] as const,
    mutationFn: ({ id, status }: { id: number; status: IdeaStatus }): Promise<Idea> =>
      unwrap(
        api.PUT("/api/trade-ideas/{idea_id}", { params: { path: { idea_id: id } }, body: { status } }),
        "Failed to update trade status",
      ),
    retry: false,
  };
}

export function useSetIdeaStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    ...setIdeaStatusMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ideasKey }),
  });
}
