import { QueryClient } from "@tanstack/react-query";
import { isRetryable } from "../api/errors";

/** Spec §9: fresh 2 min, collected after 5 min, one retry after 1 s, no refetch on focus. */
export function createQueryClient(): QueryClient {
  const retry = (failureCount: number, error: unknown) => failureCount < 1 && isRetryable(error);
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2 * 60 * 1000,
        gcTime: 5 * 60 * 1000,
        retry,
        retryDelay: 1000,
        refetchOnWindowFocus: false,
        refetchInterval: false,
      },
      mutations: {
        retry,
        retryDelay: 1000,
      },
    },
  });
}
