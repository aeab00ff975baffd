import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type RiskSettings } from "./types";

/** PUT /api/me/risk-settings. */
export function updateRiskSettingsMutationOptions() {
  return {
    mutationKey: ["me", "risk-settings", "update"] as const,
    mutationFn: (body: RiskSettings): Promise<RiskSettings> =>
      unwrap(api.PUT("/api/me/risk-settings", { body }), "Failed to save your risk settings"),
  };
}

export function useUpdateRiskSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateRiskSettingsMutationOptions(),
    onSuccess: (settings) => queryClient.setQueryData(deskKeys.riskSettings, settings),
  });
}
