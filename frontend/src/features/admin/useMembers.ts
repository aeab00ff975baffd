import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";
import type { MemberFilter } from "./types";

/** GET /api/admin/members: one page of members matching the search and filters. */
export function membersQueryOptions(filter: MemberFilter) {
  return queryOptions({
    queryKey: adminKeys.members(filter),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET("/api/admin/members", {
          params: {
            query: {
              query: filter.query,
              page: filter.page,
              ...(filter.role ? { role: filter.role } : {}),
              ...(filter.state ? { state: filter.state } : {}),
            },
          },
          signal,
        }),
        "Could not load members",
      ),
    placeholderData: keepPreviousData,
  });
}

export function useMembers(filter: MemberFilter) {
  return useQuery(membersQueryOptions(filter));
}
