import type { Schemas } from "../api/client";
import type { Market } from "./session";

/**
 * The cache contract between the notifications feature, which owns a customer's notification settings, and the ideas
 * feature, whose NEW tags and unseen counts follow them (features never import each other; decision 0196): the keys
 * both use and the one rule of who hears of an idea.
 */

export type NotificationSettings = Schemas["NotificationSettings"];

/** GET/PUT /api/me/notification-settings (owned by features/notifications). */
export const notificationSettingsKey = ["me", "notification-settings"] as const;

/** The ideas feature's queries whose answers follow the settings, refreshed after a change of them: the unseen
 * counts, and every ideas query (its NEW tags). Defined here once; features/ideas/api/queryKeys.ts uses them. */
export const unseenCountsKey = ["me", "unseen-counts"] as const;
export const ideasKey = ["ideas"] as const;

/** Whether a customer hears of an idea in `market` by `educatorId`: its market is on and its educator not switched
 * off (an educator missing from the settings is on), or undefined while the settings are not known. */
export function notifiedAbout(settings: NotificationSettings | undefined, market: Market, educatorId: number): boolean | undefined {
  if (settings === undefined) return undefined;
  return settings[market] && settings.educators?.[String(educatorId)] !== false;
}
