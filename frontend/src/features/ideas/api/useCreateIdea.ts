import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { ideasKey, type Idea, type IdeaCreate } from "./types";

/** POST /api/trade-ideas: publish an idea (status active). */
export function createIdeaMutationOptions() {
  return {
    mutationKey: [...ideasKey, "create"] as const,
    mutationFn: (body: IdeaCreate): Promise<Idea> => unwrap(api.POST("/api/trade-ideas", { body }), "Failed to create trade idea"),
    retry: false,
  };
}

export function useCreateIdea() {
  const queryClient = useQueryClient();
  return useMutation({
    ...createIdeaMutationOptions(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ideasKey }),
  });
}
