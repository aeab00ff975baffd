import type { QueryClient } from "@tanstack/react-query";
import type { EventHandlers } from "../../lib/realtime";
import { trackRecordsKey } from "./queryKeys";

/**
 * Track records change when an idea completes, is reset or re-graded (`idea.record`, sent in the same transaction
 * as the figures), is published (open ideas are counted) or is deleted; open pages and lists then refetch their
 * figures, which are small and never scan ideas on the server.
 */
const refresh = (queryClient: QueryClient) => void queryClient.invalidateQueries({ queryKey: trackRecordsKey });

export const trackRecordEventHandlers: EventHandlers = {
  "idea.record": refresh,
  "idea.withdrawn": refresh,
  "idea.created": refresh,
  "idea.deleted": refresh,
};
