import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

/** POST /api/push/test-notification: a test push to this customer's own subscriptions, with the outcome. */
export function useSendTestNotification() {
  return useMutation({
    mutationFn: () => unwrap(api.POST("/api/push/test-notification"), "Could not send the test notification"),
  });
}
