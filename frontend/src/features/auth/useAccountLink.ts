import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, type LoginResponse } from "../../api/client";
import { unwrap } from "../../api/errors";
import { rememberSignedIn } from "./signedInHint";
import { currentUserQueryKey } from "./useCurrentUser";

/** An invitation (`/invite/{token}`) or a password reset (`/reset/{token}`) link. */
export type LinkKind = "invite" | "reset";

/** GET /api/invites/{token} or /api/password-resets/{token}: who the link is for, while it can be used. */
export function accountLinkQueryOptions(kind: LinkKind, token: string) {
  return queryOptions({
    queryKey: ["auth", "link", kind, token] as const,
    queryFn: ({ signal }) =>
      kind === "invite"
        ? unwrap(api.GET("/api/invites/{token}", { params: { path: { token } }, signal }), "Could not check the link")
        : unwrap(api.GET("/api/password-resets/{token}", { params: { path: { token } }, signal }), "Could not check the link"),
    retry: false,
    staleTime: Infinity,
  });
}

export function useAccountLink(kind: LinkKind, token: string) {
  return useQuery(accountLinkQueryOptions(kind, token));
}

/** POST /api/invites/{token}/accept or /api/password-resets/{token}: sets the password; answers like a login. */
export function useSetPasswordWithLink(kind: LinkKind, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ["auth", "link", kind] as const,
    mutationFn: (password: string): Promise<LoginResponse> =>
      kind === "invite"
        ? unwrap(api.POST("/api/invites/{token}/accept", { params: { path: { token } }, body: { password } }), "Could not set the password")
        : unwrap(api.POST("/api/password-resets/{token}", { params: { path: { token } }, body: { password } }), "Could not set the password"),
    retry: false,
    onSuccess: (response) => {
      rememberSignedIn(response.user.role);
      queryClient.setQueryData(currentUserQueryKey, response.user);
    },
  });
}
