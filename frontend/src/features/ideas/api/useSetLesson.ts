import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, type Idea, type LessonIn } from "./types";

/** PUT /api/trade-ideas/{id}/lesson {whatHappened, lesson}: add or correct an own completed idea's lesson. */
export function setLessonMutationOptions() {
  return {
    mutationKey: [...ideasKey, "lesson"] as const,
    mutationFn: ({ id, body }: { id: number; body: LessonIn }): Promise<Idea> =>
      unwrap(api.PUT("/api/trade-ideas/{idea_id}/lesson", { params: { path: { idea_id: id } }, body }), "Failed to save the lesson"),
    retry: false,
  };
}

export function useSetLesson() {
  const queryClient = useQueryClient();
  return useMutation({
    ...setLessonMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ideasKey }),
  });
}
