import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, type Revision } from "./types";

/** GET /api/trade-ideas/{id}/revisions: who changed which field, newest first. */
export function ideaRevisionsQueryOptions(id: number) {
  return queryOptions({
    queryKey: [...ideasKey, "revisions", id] as const,
    queryFn: ({ signal }): Promise<Revision[]> =>
      unwrap(api.GET("/api/trade-ideas/{idea_id}/revisions", { params: { path: { idea_id: id } }, signal }), "Failed to load changes"),
    staleTime: 0,
  });
}

export function useIdeaRevisions(id: number, enabled: boolean) {
  return useQuery({ ...ideaRevisionsQueryOptions(id), enabled });
}
