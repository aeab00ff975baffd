import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import type { Market } from "../../../lib/session";
import { unseenCountsKey, type UnseenCounts } from "./types";

export type SeenRequest = { ideaIds?: number[]; market?: Market };

/** POST /api/trade-ideas/seen {ideaIds} or {market}: answers the new unseen counts. */
export function markSeenMutationOptions() {
  return {
    mutationKey: ["ideas", "seen"] as const,
    mutationFn: (body: SeenRequest): Promise<UnseenCounts> =>
      unwrap(api.POST("/api/trade-ideas/seen", { body: { ideaIds: body.ideaIds ?? [], market: body.market ?? null } }), "Failed to mark ideas seen"),
  };
}

/** Marks ideas seen; the unseen badges take the answer (the idea lists keep their NEW tags until reloaded). */
export function useMarkSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    ...markSeenMutationOptions(),
    // The answer is the server's count after the change: nothing to ask again.
    onSuccess: (counts) => queryClient.setQueryData(unseenCountsKey, counts),
  });
}
