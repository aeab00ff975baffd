import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type RiskSettings } from "./types";

export const updateRiskSettingsKey = ["me", "risk-settings", "update"] as const;

/** PUT /api/me/risk-settings. Kept and sent later when made without a connection. */
export function updateRiskSettingsMutationOptions(queryClient: QueryClient) {
  return {
    mutationKey: updateRiskSettingsKey,
    mutationFn: (body: RiskSettings): Promise<RiskSettings> =>
      unwrap(api.PUT("/api/me/risk-settings", { body }), "Failed to save your risk settings"),
    onSuccess: (settings: RiskSettings) => queryClient.setQueryData(deskKeys.riskSettings, settings),
  };
}

export function useUpdateRiskSettings() {
  return useMutation(updateRiskSettingsMutationOptions(useQueryClient()));
}
