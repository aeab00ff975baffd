import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";

export type ConversionRate = Schemas["ConversionRateOut"];

/**
 * GET /api/me/conversion-rates/{from}/{to}: one unit of `from` in `to` from the price feed's latest price, for
 * sizing crosses, metals and indices; `rate` is null when no feed is configured or it has no recent price.
 */
export function conversionRateQueryOptions(from: string, to: string) {
  return queryOptions({
    queryKey: ["me", "conversion-rates", from, to] as const,
    queryFn: ({ signal }): Promise<ConversionRate> =>
      unwrap(
        api.GET("/api/me/conversion-rates/{from_currency}/{to_currency}", {
          params: { path: { from_currency: from, to_currency: to } },
          signal,
        }),
        "Failed to load the conversion rate",
      ),
    staleTime: 5 * 60 * 1000, // a rate for sizing, not for trading: a few minutes old is fine
  });
}

/** The feed's rate, asked only when sizing needs one (`from` null: none needed). */
export function useConversionRate(from: string | null, to: string | undefined) {
  return useQuery({ ...conversionRateQueryOptions(from ?? "", to ?? ""), enabled: Boolean(from && to) });
}
