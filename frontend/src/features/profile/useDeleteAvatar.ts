import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { refreshAfterProfileChange } from "./refreshAfterProfileChange";
import type { Profile } from "./types";

/** DELETE /api/me/avatar: removes the profile photo (initials are shown instead). */
export function deleteAvatarMutationOptions() {
  return {
    mutationKey: ["profile", "delete-avatar"] as const,
    mutationFn: (): Promise<Profile> => unwrap(api.DELETE("/api/me/avatar"), "Failed to delete image"),
    retry: false,
  };
}

export function useDeleteAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    ...deleteAvatarMutationOptions(),
    onSuccess: (profile) => refreshAfterProfileChange(queryClient, profile),
  });
}
