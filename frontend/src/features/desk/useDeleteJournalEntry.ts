import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys } from "./types";

/** DELETE /api/me/journal/{id}. */
export function deleteJournalEntryMutationOptions() {
  return {
    mutationKey: ["me", "journal", "delete"] as const,
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE("/api/me/journal/{entry_id}", { params: { path: { entry_id: id } } }), "Failed to delete the journal entry");
    },
  };
}

export function useDeleteJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    ...deleteJournalEntryMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
  });
}
