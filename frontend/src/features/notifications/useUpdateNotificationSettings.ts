import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { ideasKey, notificationSettingsKey, unseenCountsKey, type NotificationSettings } from "../../lib/notificationSettings";

export const updateNotificationSettingsKey = ["me", "notification-settings", "update"] as const;

/** PUT /api/me/notification-settings {forex, crypto}. Kept and sent later when made without a connection. */
export function updateNotificationSettingsMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: updateNotificationSettingsKey,
    mutationFn: (body: NotificationSettings): Promise<NotificationSettings> =>
      unwrap(api.PUT("/api/me/notification-settings", { body }), "Failed to save notification settings"),
    onSuccess: (settings: NotificationSettings) => {
      queryClient.setQueryData(notificationSettingsKey, settings);
      void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      // The ideas feature's NEW tags and unseen counts follow what a customer is notified about.
      void queryClient.invalidateQueries({ queryKey: ideasKey });
    },
  };
}

export function useUpdateNotificationSettings() {
  return useMutation(updateNotificationSettingsMutationOptions(useQueryClient()));
}
