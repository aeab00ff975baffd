import { reloadFromEvent, type EventHandlers } from "../../lib/realtime";
import { billingKeys } from "./queryKeys";

/** A member's grants changed (an admin, Stripe, or the end of a period): their billing page shows it at once. */
export const billingEventHandlers: EventHandlers = {
  "billing.access": (queryClient) => reloadFromEvent(queryClient, billingKeys.mine),
};
