import type { QueryClient } from "@tanstack/react-query";
import { profileKeys, type Profile } from "./types";

/**
 * A profile change shows everywhere (the signed-in user, chat messages, ideas), so after
 * storing the new profile every cached query is marked stale and the visible ones refetch.
 */
export function refreshAfterProfileChange(queryClient: QueryClient, profile: Profile) {
  queryClient.setQueryData(profileKeys.me, profile);
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== "config" });
}
