import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { Schemas } from "../../api/client";

export type Educator = Schemas["EducatorOut"];

/** GET /api/users/educators: the educators' public profiles (names, specialties, bios). */
export const educatorsQueryOptions = queryOptions({
  queryKey: ["users", "educators"] as const,
  queryFn: ({ signal }): Promise<Educator[]> => unwrap(api.GET("/api/users/educators", { signal }), "Failed to get educators"),
  staleTime: 5 * 60_000,
});

export function useEducators(enabled = true) {
  return useQuery({ ...educatorsQueryOptions, enabled });
}
