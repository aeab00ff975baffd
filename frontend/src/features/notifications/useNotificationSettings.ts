import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { notificationSettingsKey, type NotificationSettings } from "../../lib/notificationSettings";

/** GET /api/me/notification-settings: markets, educators, events and quiet hours (every market on by default). */
export const notificationSettingsQueryOptions = queryOptions({
  queryKey: notificationSettingsKey,
  queryFn: ({ signal }): Promise<NotificationSettings> =>
    unwrap(api.GET("/api/me/notification-settings", { signal }), "Failed to load notification settings"),
});

export function useNotificationSettings(enabled = true) {
  return useQuery({ ...notificationSettingsQueryOptions, enabled });
}
