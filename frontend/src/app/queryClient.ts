import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError, isRetryable } from "../api/errors";
import { isAccountDisabled, rememberAccountDisabled } from "../features/auth/accountDisabled";
import { currentUserQueryKey } from "../features/auth/useCurrentUser";
import { PERSIST_MAX_AGE } from "./persist";

/**
 * Spec §9: fresh 2 min, one retry after 1 s, no refetch on focus. Unused answers stay a day instead of 5 min
 * (decision 0052): the persisted cache is what a member reads offline, and it only holds what is in the cache.
 * While the browser is offline, queries wait for the connection (TanStack's `online` mode) and screens show what the
 * persisted cache kept, with its true age: answering them from the service worker's copy would stamp old data as
 * just loaded, and the offline banner would lie about its age. Mutations fail fast by default; the writes that are
 * kept and sent later wait for the connection (app/offlineWrites.ts).
 */
export function createQueryClient(): QueryClient {
  const retry = (failureCount: number, error: unknown) => failureCount < 1 && isRetryable(error);
  // A member disabled while signed in: whichever request learns it first signs the tab out, and /login says why.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401 && isAccountDisabled(error)) {
      rememberAccountDisabled();
      client.setQueryData(currentUserQueryKey, null);
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        staleTime: 2 * 60 * 1000,
        gcTime: PERSIST_MAX_AGE,
        retry,
        retryDelay: 1000,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        networkMode: "online",
      },
      mutations: {
        retry,
        retryDelay: 1000,
        networkMode: "always",
      },
    },
  });
  return client;
}
