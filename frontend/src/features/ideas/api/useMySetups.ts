import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { setupKeys, type Setup } from "./types";

/** GET /api/me/setups: the educator's own setups, in the order they were added. */
export function mySetupsQueryOptions() {
  return queryOptions({
    queryKey: setupKeys.mine,
    queryFn: ({ signal }): Promise<Setup[]> => unwrap(api.GET("/api/me/setups", { signal }), "Failed to load your setups"),
  });
}

export function useMySetups(enabled = true) {
  return useQuery({ ...mySetupsQueryOptions(), enabled });
}
