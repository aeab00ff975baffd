import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type AppConfig } from "../../api/client";
import { unwrap } from "../../api/errors";

export const appConfigQueryKey = ["config"] as const;

export const appConfigQueryOptions = queryOptions({
  queryKey: appConfigQueryKey,
  queryFn: ({ signal }) => unwrap(api.GET("/api/config", { signal }), "Failed to load configuration"),
  staleTime: Infinity,
});

/** Used until /api/config answers, so screens never wait on it to render. */
export const FALLBACK_CONFIG: AppConfig = { appName: "Trade Ideas", channelUrl: "", supportContact: "", educatorSlugs: [] };

export function useAppConfig() {
  return useQuery(appConfigQueryOptions);
}

/** The config, or the fallback while it loads or if it failed. */
export function useAppConfigValue(): AppConfig {
  return useAppConfig().data ?? FALLBACK_CONFIG;
}
