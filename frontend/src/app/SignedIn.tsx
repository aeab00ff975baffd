import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { CurrentUser } from "../api/client";
import { currentUserQueryKey } from "../features/auth/useCurrentUser";
import { PushPrompt } from "../features/pwa/PushPrompt";
import { RealtimeConnection } from "../features/realtime/RealtimeConnection";

/**
 * What runs for as long as someone is signed in (mounted once by RequireAuth, so once per tab):
 * the realtime stream (closed on logout, when this unmounts) and, for customers, the Web Push prompt.
 */
export function SignedIn({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  // The stream was refused: maybe the session ended, so ask who is signed in.
  const onGaveUp = useCallback(() => void queryClient.refetchQueries({ queryKey: currentUserQueryKey }), [queryClient]);
  return (
    <>
      <RealtimeConnection viewer={{ id: user.id, role: user.role }} onGaveUp={onGaveUp} />
      {user.role === "customer" ? <PushPrompt /> : null}
    </>
  );
}
