import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type JournalEntry, type JournalUpdate } from "./types";

export const updateJournalEntryKey = ["me", "journal", "update"] as const;

export interface JournalEntryChange {
  id: number;
  body: JournalUpdate;
}

/** PATCH /api/me/journal/{id}: close with an exit price, reopen (exitPrice null) or change the note. Kept offline. */
export function updateJournalEntryMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: updateJournalEntryKey,
    mutationFn: ({ id, body }: JournalEntryChange): Promise<JournalEntry> =>
      unwrap(api.PATCH("/api/me/journal/{entry_id}", { params: { path: { entry_id: id } }, body }), "Failed to update the journal entry"),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
  };
}

export function useUpdateJournalEntry() {
  return useMutation(updateJournalEntryMutationOptions(useQueryClient()));
}
