import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { fileBody } from "../../api/upload";
import type { MediaOut } from "./types";

/** POST /api/media (multipart `file`): stores one image, returns its id for imageIds. */
export function uploadMediaMutationOptions() {
  return {
    mutationKey: ["media", "upload"] as const,
    mutationFn: (file: Blob): Promise<MediaOut> =>
      unwrap(api.POST("/api/media", fileBody(file, "photo.jpg")), "Failed to upload image"),
    retry: false,
  };
}

export function useUploadMedia() {
  return useMutation(uploadMediaMutationOptions());
}
