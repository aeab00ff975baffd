import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, setupsKey, type Setup, type SetupUpdate } from "./types";

/** PATCH /api/me/setups/{id}: rename or describe an own setup (its ideas show the new name). */
export function updateSetupMutationOptions() {
  return {
    mutationKey: [...setupsKey, "update"] as const,
    mutationFn: ({ id, body }: { id: number; body: SetupUpdate }): Promise<Setup> =>
      unwrap(api.PATCH("/api/me/setups/{setup_id}", { params: { path: { setup_id: id } }, body }), "Failed to save the setup"),
    retry: false,
  };
}

export function useUpdateSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateSetupMutationOptions(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: setupsKey });
      await queryClient.invalidateQueries({ queryKey: ideasKey });
    },
  });
}
