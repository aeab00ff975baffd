import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { profileKeys, type Profile } from "./types";

/** GET /api/me/profile: the signed-in user's own profile. */
export const profileQueryOptions = queryOptions({
  queryKey: profileKeys.me,
  queryFn: ({ signal }): Promise<Profile> => unwrap(api.GET("/api/me/profile", { signal }), "Failed to fetch profile"),
});

export function useProfile() {
  return useQuery(profileQueryOptions);
}
