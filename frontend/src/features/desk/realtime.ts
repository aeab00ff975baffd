import type { EventHandlers } from "../../lib/realtime";
import { deskKeys } from "./types";

/** The customer's journal changed in another tab or device: reload it (entries carry computed results). */
export const deskEventHandlers: EventHandlers = {
  "journal.changed": (queryClient) => void queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
};
