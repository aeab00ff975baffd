import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type CurrentUser } from "../../api/client";
import { ApiError, unwrap } from "../../api/errors";

export const currentUserQueryKey = ["auth", "user"] as const;

/** GET /api/auth/user: the signed-in user, or null when there is no session (401). */
export const currentUserQueryOptions = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: async ({ signal }): Promise<CurrentUser | null> => {
    try {
      return await unwrap(api.GET("/api/auth/user", { signal }), "Failed to load user");
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 5 * 60 * 1000,
});

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}
