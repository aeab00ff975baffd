import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { ideasKey, notificationSettingsKey, unseenCountsKey, type NotificationSettings } from "./types";

/** PUT /api/me/notification-settings {forex, crypto}. */
export function updateNotificationSettingsMutationOptions() {
  return {
    mutationKey: ["me", "notification-settings", "update"] as const,
    mutationFn: (body: NotificationSettings): Promise<NotificationSettings> =>
      unwrap(api.PUT("/api/me/notification-settings", { body }), "Failed to save notification settings"),
  };
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateNotificationSettingsMutationOptions(),
    onSuccess: (settings) => {
      queryClient.setQueryData(notificationSettingsKey, settings);
      void queryClient.invalidateQueries({ queryKey: unseenCountsKey });
      // NEW tags follow the markets a customer is notified about.
      void queryClient.invalidateQueries({ queryKey: ideasKey });
    },
  });
}
