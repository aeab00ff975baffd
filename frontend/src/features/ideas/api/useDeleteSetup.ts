import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { setupsKey } from "./types";

/** DELETE /api/me/setups/{id}: remove an own setup that no idea names (409 otherwise). */
export function deleteSetupMutationOptions() {
  return {
    mutationKey: [...setupsKey, "delete"] as const,
    mutationFn: async (id: number): Promise<void> => {
      await unwrap(api.DELETE("/api/me/setups/{setup_id}", { params: { path: { setup_id: id } } }), "Failed to delete the setup");
    },
    retry: false,
  };
}

export function useDeleteSetup() {
  const queryClient = useQueryClient();
  return useMutation({ ...deleteSetupMutationOptions(), onSuccess: () => queryClient.invalidateQueries({ queryKey: setupsKey }) });
}
