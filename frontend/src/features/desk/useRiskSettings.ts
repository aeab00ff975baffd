import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { deskKeys, type RiskSettings } from "./types";

/** GET /api/me/risk-settings: account size and currency, risk per trade (%), leverage. */
export const riskSettingsQueryOptions = queryOptions({
  queryKey: deskKeys.riskSettings,
  queryFn: ({ signal }): Promise<RiskSettings> =>
    unwrap(api.GET("/api/me/risk-settings", { signal }), "Failed to load your risk settings"),
  staleTime: Infinity, // changes only through this app, which updates the cache
});

export function useRiskSettings(enabled = true) {
  return useQuery({ ...riskSettingsQueryOptions, enabled });
}
