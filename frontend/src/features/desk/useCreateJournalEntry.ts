import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type JournalCreate, type JournalEntry } from "./types";

export const createJournalEntryKey = ["me", "journal", "create"] as const;

/** What "I took this" sends, with the words a screen shows for it while it waits ("EUR/USD BUY"). */
export interface JournalCreateWrite {
  body: JournalCreate;
  label: string;
  /** The fill price as typed ("1.0850"). */
  price: string;
  /**
   * Made once when the customer saves and kept with the waiting write (IndexedDB), so however often the device
   * sends it (a reconnect, a reload that restored it), the server records one entry (decision 0057). Writes kept by
   * an older version of the app have none.
   */
  key?: string;
}

/** A new idempotency key for one "I took this". */
export function newWriteKey(): string {
  return crypto.randomUUID();
}

/**
 * POST /api/me/journal: "I took this". Also the mutation default (app/offlineWrites.ts), so an entry made without a
 * connection is kept and sent when it returns, after a reload too.
 */
export function createJournalEntryMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: createJournalEntryKey,
    mutationFn: ({ body, key }: JournalCreateWrite): Promise<JournalEntry> =>
      unwrap(
        api.POST("/api/me/journal", { body, params: { header: key ? { "Idempotency-Key": key } : {} } }),
        "Failed to save the trade in your journal",
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
    // Sending it again is safe (the key), but a refusal is shown with its message and the customer decides.
    retry: false,
  };
}

export function useCreateJournalEntry() {
  return useMutation(createJournalEntryMutationOptions(useQueryClient()));
}
