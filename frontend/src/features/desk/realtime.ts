import type { QueryClient } from "@tanstack/react-query";
import type { EventHandlers } from "../../lib/realtime";
import { deskKeys, type Journal } from "./types";

/** Entries show the educator's status and R of their idea: reload when one of those ideas changes. */
function ideaChanged(queryClient: QueryClient, ideaId: number) {
  const journal = queryClient.getQueryData<Journal>(deskKeys.journal);
  if (journal?.entries.some((entry) => entry.ideaId === ideaId)) void queryClient.invalidateQueries({ queryKey: deskKeys.journal });
}

/** The journal is fresh until an event says otherwise (no time-based refetch: see useJournal.ts). */
export const deskEventHandlers: EventHandlers = {
  // The customer's journal changed in another tab or device: reload it (entries carry computed results).
  "journal.changed": (queryClient) => void queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
  "idea.status": (queryClient, event) => ideaChanged(queryClient, event.id),
  "idea.deleted": (queryClient, event) => ideaChanged(queryClient, event.id),
};
