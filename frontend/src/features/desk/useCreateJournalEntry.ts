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
}

/**
 * POST /api/me/journal: "I took this". Also the mutation default (app/offlineWrites.ts), so an entry made without a
 * connection is kept and sent when it returns, after a reload too.
 */
export function createJournalEntryMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: createJournalEntryKey,
    mutationFn: ({ body }: JournalCreateWrite): Promise<JournalEntry> =>
      unwrap(api.POST("/api/me/journal", { body }), "Failed to save the trade in your journal"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
    // Not idempotent: a retry after an answer lost on the way back would record the trade twice. A failure is shown
    // with its message instead, and the customer decides.
    retry: false,
  };
}

export function useCreateJournalEntry() {
  return useMutation(createJournalEntryMutationOptions(useQueryClient()));
}
