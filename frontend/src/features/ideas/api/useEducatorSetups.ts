import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { setupKeys, type Setup } from "./types";

/** GET /api/educators/{id}/setups: an educator's setups with their descriptions. */
export function educatorSetupsQueryOptions(educatorId: number) {
  return queryOptions({
    queryKey: setupKeys.educator(educatorId),
    queryFn: ({ signal }): Promise<Setup[]> =>
      unwrap(api.GET("/api/educators/{educator_id}/setups", { params: { path: { educator_id: educatorId } }, signal }), "Failed to load setups"),
    staleTime: 5 * 60_000,
  });
}

export function useEducatorSetups(educatorId: number, enabled = true) {
  return useQuery({ ...educatorSetupsQueryOptions(educatorId), enabled });
}
