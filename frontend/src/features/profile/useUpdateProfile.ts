import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { refreshAfterProfileChange } from "./refreshAfterProfileChange";
import type { Profile, ProfileUpdate } from "./types";

/** PUT /api/me/profile: any subset of the profile; omitted fields stay as they are. */
export function updateProfileMutationOptions() {
  return {
    mutationKey: ["profile", "update"] as const,
    mutationFn: (body: ProfileUpdate): Promise<Profile> => unwrap(api.PUT("/api/me/profile", { body }), "Failed to update profile"),
    retry: false,
  };
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    ...updateProfileMutationOptions(),
    onSuccess: (profile) => refreshAfterProfileChange(queryClient, profile),
  });
}
