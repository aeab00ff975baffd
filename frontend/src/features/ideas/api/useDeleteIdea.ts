import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey } from "./types";

/** DELETE /api/trade-ideas/{id} (204). */
export function deleteIdeaMutationOptions() {
  return {
    mutationKey: [...ideasKey, "delete"] as const,
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE("/api/trade-ideas/{idea_id}", { params: { path: { idea_id: id } } }), "Failed to delete trade idea");
    },
    retry: false,
  };
}

export function useDeleteIdea() {
  const queryClient = useQueryClient();
  return useMutation({
    ...deleteIdeaMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ideasKey }),
  });
}
