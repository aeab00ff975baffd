import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect } from "react";
import type { CurrentUser } from "../api/client";
import { currentUserQueryKey } from "../features/auth/useCurrentUser";
import { PushPrompt } from "../features/pwa/PushPrompt";
import { linkManifest } from "../features/pwa/installPrompt";
import { billingEventHandlers } from "../features/billing/realtime";
import { chatEventHandlers } from "../features/chat/realtime";
import { deskEventHandlers } from "../features/desk/realtime";
import { ideaEventHandlers } from "../features/ideas/realtime/realtime";
import { trackRecordEventHandlers } from "../features/trackrecords/realtime";
import { RealtimeConnection } from "../features/realtime/RealtimeConnection";
import { combineHandlers } from "../lib/realtime";
import { useWhenIdle } from "../lib/whenIdle";

/** Each feature's reactions to server events, in one dispatch table. */
const realtimeHandlers = combineHandlers(
  ideaEventHandlers,
  chatEventHandlers,
  trackRecordEventHandlers,
  deskEventHandlers,
  billingEventHandlers,
);

/**
 * What runs for as long as someone is signed in (mounted once by RequireAuth, so once per tab):
 * the realtime stream (closed on logout, when this unmounts) and, for customers, the Web Push prompt.
 */
export function SignedIn({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  // The stream was refused: maybe the session ended, so ask who is signed in.
  const onGaveUp = useCallback(() => void queryClient.refetchQueries({ queryKey: currentUserQueryKey }), [queryClient]);
  // The stream opens once the first screen has been painted (lib/whenIdle), not in the effects of its first commit.
  const streaming = useWhenIdle();
  // The install offer's manifest too (decision 0064; on other first screens RootLayout links it at once).
  useEffect(() => {
    if (streaming) linkManifest();
  }, [streaming]);
  return (
    <>
      {streaming ? <RealtimeConnection viewer={{ id: user.id, role: user.role }} handlers={realtimeHandlers} onGaveUp={onGaveUp} /> : null}
      {user.role === "customer" ? <PushPrompt /> : null}
    </>
  );
}
