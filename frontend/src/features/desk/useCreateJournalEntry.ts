import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type JournalCreate, type JournalEntry } from "./types";

/** POST /api/me/journal: "I took this". */
export function createJournalEntryMutationOptions() {
  return {
    mutationKey: ["me", "journal", "create"] as const,
    mutationFn: (body: JournalCreate): Promise<JournalEntry> =>
      unwrap(api.POST("/api/me/journal", { body }), "Failed to save the trade in your journal"),
  };
}

export function useCreateJournalEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    ...createJournalEntryMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deskKeys.journal }),
  });
}
