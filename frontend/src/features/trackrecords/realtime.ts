import type { QueryClient } from "@tanstack/react-query";
import { reloadFromEvent, type EventHandlers } from "../../lib/realtime";
import { trackRecordsKey } from "./queryKeys";

/**
 * Track records change when an idea completes, is reset or re-graded (`idea.record`, sent in the same transaction
 * as the figures), is published (open ideas are counted) or is deleted; open pages and lists then refetch their
 * figures, which are small and never scan ideas on the server. A reload, not an update: the events do not
 * carry the figures. `reloadFromEvent` cancels fetches under way first, so an answer computed before the
 * change cannot land after the event and pass for fresh.
 */
const refresh = (queryClient: QueryClient) => reloadFromEvent(queryClient, trackRecordsKey);

export const trackRecordEventHandlers: EventHandlers = {
  "idea.record": refresh,
  "idea.withdrawn": refresh,
  "idea.created": refresh,
  "idea.deleted": refresh,
};
