import { useMutation } from "@tanstack/react-query";
import { api } from "../../../api/client";
import { unwrap } from "../../../api/errors";
import { fileBody } from "../../../api/upload";
import type { MediaOut } from "./types";

/** A name for the part; the server goes by the content (and treats a declared audio/* type as audio). */
function partName(file: Blob): string {
  if (file instanceof File && file.name) return file.name;
  return file.type.startsWith("audio/") ? "voice-note" : "photo.jpg";
}

/** POST /api/media (multipart `file`): stores one image (id for imageIds) or voice note (id for audioId). */
export function uploadMediaMutationOptions() {
  return {
    mutationKey: ["media", "upload"] as const,
    mutationFn: (file: Blob): Promise<MediaOut> =>
      unwrap(
        api.POST("/api/media", fileBody(file, partName(file))),
        file.type.startsWith("audio/") ? "Failed to upload the voice note" : "Failed to upload image",
      ),
    retry: false,
  };
}

export function useUploadMedia() {
  return useMutation(uploadMediaMutationOptions());
}
