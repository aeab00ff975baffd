import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";

/** GET /api/users/educators, reduced to id -> display name (for the notification switches). */
export const educatorNamesQueryOptions = queryOptions({
  queryKey: ["users", "educators", "names"] as const,
  queryFn: async ({ signal }) => {
    const educators = await unwrap(api.GET("/api/users/educators", { signal }), "Could not load educators");
    return new Map(educators.map((educator) => [educator.id, educator.displayName]));
  },
  staleTime: 10 * 60 * 1000,
});

export function useEducatorNames(enabled = true) {
  return useQuery({ ...educatorNamesQueryOptions, enabled });
}
