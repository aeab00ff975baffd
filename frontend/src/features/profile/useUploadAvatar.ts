import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { fileBody } from "../../api/upload";
import { refreshAfterProfileChange } from "./refreshAfterProfileChange";
import type { Profile } from "./types";

/** POST /api/me/avatar (multipart `file`): the profile photo; images only, re-encoded by the server. */
export function uploadAvatarMutationOptions() {
  return {
    mutationKey: ["profile", "upload-avatar"] as const,
    mutationFn: (file: Blob): Promise<Profile> =>
      unwrap(api.POST("/api/me/avatar", fileBody(file)), "Failed to upload image"),
    retry: false,
  };
}

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    ...uploadAvatarMutationOptions(),
    onSuccess: (profile) => refreshAfterProfileChange(queryClient, profile),
  });
}
