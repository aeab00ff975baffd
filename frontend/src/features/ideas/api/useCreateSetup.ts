import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { setupsKey, type Setup, type SetupCreate } from "./types";

/** POST /api/me/setups: add a setup to the educator's list. */
export function createSetupMutationOptions() {
  return {
    mutationKey: [...setupsKey, "create"] as const,
    mutationFn: (body: SetupCreate): Promise<Setup> => unwrap(api.POST("/api/me/setups", { body }), "Failed to add the setup"),
    retry: false,
  };
}

export function useCreateSetup() {
  const queryClient = useQueryClient();
  return useMutation({ ...createSetupMutationOptions(), onSuccess: () => queryClient.invalidateQueries({ queryKey: setupsKey }) });
}
