import { useMutation } from "@tanstack/react-query";
import { api, type Schemas } from "../../api/client";
import { unwrap } from "../../api/errors";
import { fileBody } from "../../api/upload";

export type UploadedMedia = Schemas["MediaOut"];

/** POST /api/media (multipart `file`): stores a chat image and returns its id for the message. */
export function uploadChatImageMutationOptions() {
  return {
    mutationKey: ["chat", "upload-image"] as const,
    mutationFn: (file: Blob): Promise<UploadedMedia> =>
      unwrap(api.POST("/api/media", fileBody(file)), "Failed to upload image"),
  };
}

export function useUploadChatImage() {
  return useMutation(uploadChatImageMutationOptions());
}
