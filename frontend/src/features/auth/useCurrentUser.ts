import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, type CurrentUser } from "../../api/client";
import { ApiError, unwrap } from "../../api/errors";
import { isAccountDisabled, rememberAccountDisabled } from "./accountDisabled";
import { forgetSignedIn, maybeSignedIn, rememberSignedIn } from "./signedInHint";

export const currentUserQueryKey = ["auth", "user"] as const;

/** GET /api/auth/user: the signed-in user, or null when there is no session (401). */
export const currentUserQueryOptions = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: async ({ signal }): Promise<CurrentUser | null> => {
    try {
      const user = await unwrap(api.GET("/api/auth/user", { signal }), "Failed to load user");
      rememberSignedIn(user.role);
      return user;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        if (isAccountDisabled(error)) rememberAccountDisabled(); // /login says why the session ended
        forgetSignedIn();
        return null;
      }
      throw error;
    }
  },
  staleTime: 5 * 60 * 1000,
});

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions);
}

/** The signed-in user, asked for only when this browser may hold a session (the login pages). */
export function useCurrentUserIfSignedIn() {
  return useQuery({ ...currentUserQueryOptions, enabled: maybeSignedIn() });
}
