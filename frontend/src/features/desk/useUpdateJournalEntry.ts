import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type JournalEntry, type JournalUpdate } from "./types";

/** PATCH /api/me/journal/{id}: close with an exit price, reopen (exitPrice null) or change the note. */
export function updateJournalEntryMutationOptions() {
  return {
    mutationKey: ["me", "journal", "update"] as const,
    mutationFn: ({ id, body }: { id: number; body: JournalUpdate }): Promise<JournalEntry> =>
      unwrap(api.PATCH("/api/me/journal/{entry_id}", { params: { path: { entry_id: id } }, body }), "Failed to update the journal entry"),
  };
}

export function useUpdateJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateJournalEntryMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
  });
}
