import type { QueryClient } from "@tanstack/react-query";
import { reloadFromEvent, type EventHandlers, type EventOf } from "../../lib/realtime";
import { deskKeys, type Journal } from "./types";

/**
 * Entries show the educator's status and R of their idea: reload when one of those ideas changes (or when
 * the journal is still loading, as that answer may predate the change). A reload, not an update: the event
 * does not carry the entry's computed results. `reloadFromEvent` cancels a load under way first, so its
 * old answer cannot land after the event and pass for fresh.
 */
function ideaChanged(queryClient: QueryClient, ideaId: number, matters: (entry: Journal["entries"][number]) => boolean = () => true) {
  const state = queryClient.getQueryState<Journal>(deskKeys.journal);
  const loading = state?.fetchStatus === "fetching";
  if (loading || state?.data?.entries.some((entry) => entry.ideaId === ideaId && matters(entry))) reloadFromEvent(queryClient, deskKeys.journal);
}

/**
 * An idea's price check moved. Entries (and the summary, whose key lies under the journal's) show the price-checked
 * R and what managing cost the customer once the check settled (issue #42): reload when it settles, or when an
 * entry that showed a settled check sees it change again. The steps before (triggered, an exit reached) change
 * nothing the journal shows.
 */
function verificationChanged(queryClient: QueryClient, event: EventOf<"idea.verification">) {
  const settled = event.verification.state === "settled";
  ideaChanged(queryClient, event.id, (entry) => settled || entry.checkedRMultiple != null);
}

/** The journal is fresh until an event says otherwise (no time-based refetch: see useJournal.ts). */
export const deskEventHandlers: EventHandlers = {
  // The customer's journal changed in another tab or device: reload it (entries carry computed results).
  "journal.changed": (queryClient) => reloadFromEvent(queryClient, deskKeys.journal),
  "idea.status": (queryClient, event) => ideaChanged(queryClient, event.id),
  "idea.deleted": (queryClient, event) => ideaChanged(queryClient, event.id),
  "idea.verification": verificationChanged,
};
