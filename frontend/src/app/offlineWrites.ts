import { onlineManager, type MutationKey, type QueryClient } from "@tanstack/react-query";
import { addReactionMutationOptions } from "../features/chat/useAddReaction";
import { removeReactionMutationOptions } from "../features/chat/useRemoveReaction";
import { createJournalEntryMutationOptions } from "../features/desk/useCreateJournalEntry";
import { updateJournalEntryMutationOptions } from "../features/desk/useUpdateJournalEntry";
import { updateRiskSettingsMutationOptions } from "../features/desk/useUpdateRiskSettings";
import { updateNotificationSettingsMutationOptions } from "../features/notifications/useUpdateNotificationSettings";

/** Every kept write runs in this one queue, so they reach the server in the order they were made. */
export const OFFLINE_WRITES_SCOPE = { id: "offline-writes" };

/**
 * The writes a member can make without a connection: reactions, journal entries and their edits, risk settings,
 * notification settings. TanStack Query's documented way: mutation defaults carry each write's function and cache
 * updates, so a write restored from IndexedDB after a reload can still be sent; `networkMode: "online"` pauses it
 * while the browser is offline ("Waiting for connection") and the client resumes paused writes when it comes back.
 */
export function registerOfflineWrites(client: QueryClient): void {
  const writes = [
    createJournalEntryMutationOptions(client),
    updateJournalEntryMutationOptions(client),
    updateRiskSettingsMutationOptions(client),
    updateNotificationSettingsMutationOptions(client),
    addReactionMutationOptions(client),
    removeReactionMutationOptions(client),
  ];
  for (const write of writes) {
    client.setMutationDefaults(write.mutationKey as MutationKey, {
      ...(write as object),
      networkMode: "online",
      scope: OFFLINE_WRITES_SCOPE,
    });
  }
}

/**
 * TanStack Query starts out assuming a connection and only learns from `online`/`offline` events; a page loaded
 * without a connection must start knowing it, or its kept writes would fail instead of waiting.
 */
export function startFromBrowserConnection(): void {
  if (typeof navigator !== "undefined" && "onLine" in navigator) onlineManager.setOnline(navigator.onLine);
}

/** When this page started: answers older than this came from the device's cache. */
const PAGE_STARTED = Date.now();

/**
 * Once the cache is restored from IndexedDB: paused writes are sent as soon as the connection allows, and every
 * restored answer is marked stale, so a screen shows it at once and then asks again (a reload must not show
 * something up to two minutes old as fresh). Answers fetched since the page started are left alone.
 */
export function afterRestore(client: QueryClient): void {
  void client.resumePausedMutations();
  void client.invalidateQueries({ predicate: (query) => query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < PAGE_STARTED });
}
