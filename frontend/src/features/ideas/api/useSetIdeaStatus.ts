import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import type { IdeaStatus } from "../../../lib/ideaStatus";
import { ideasKey, type Idea } from "./types";

/** How a completed idea ended (defaults on the server: exit 1, invalidation, not triggered). */
export interface Completion {
  outcome?: NonNullable<Idea["outcome"]>;
  closePrice?: string;
}

/** PUT /api/trade-ideas/{id} {status, outcome?, closePrice?}: mark successful / unsuccessful / invalidated, or reset to active. */
export function setIdeaStatusMutationOptions() {
  return {
    mutationKey: [...ideasKey, "status"] as const,
    mutationFn: ({ id, status, outcome, closePrice }: { id: number; status: IdeaStatus } & Completion): Promise<Idea> =>
      unwrap(
        api.PUT("/api/trade-ideas/{idea_id}", { params: { path: { idea_id: id } }, body: { status, outcome, closePrice } }),
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
