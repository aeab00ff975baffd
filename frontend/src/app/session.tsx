import { useState, type ReactNode } from "react";
import { FullPageSpinner } from "../components/Spinner";
import { useAppConfigValue } from "../features/auth/useAppConfig";
import { useCurrentUser } from "../features/auth/useCurrentUser";
import { useLogout } from "../features/auth/useLogout";
import { clearOfflineData } from "../features/pwa/registerServiceWorker";
import { clearPersistedCache } from "./persist";
import type { SessionProps } from "../lib/session";

/**
 * Hands the signed-in user, the app config and logout to a feature screen.
 * Rendered inside RequireAuth, so the user is known.
 */
export function WithSession({ children }: { children: (session: SessionProps) => ReactNode }) {
  const { data: user } = useCurrentUser();
  const config = useAppConfigValue();
  const logout = useLogout();
  const [cleaning, setCleaning] = useState(false);
  if (!user) return <FullPageSpinner />;
  /** Drop this browser's push subscription while the session still exists, forget offline data, then log out. */
  const onLogout = () => {
    if (cleaning || logout.isPending) return;
    setCleaning(true);
    // push.ts loads on demand: it is not needed for any first screen.
    const unsubscribe = import("../features/pwa/push").then(({ removePushSubscription }) => removePushSubscription());
    void Promise.all([unsubscribe, clearOfflineData(), clearPersistedCache()]).finally(() => {
      setCleaning(false);
      logout.mutate();
    });
  };
  return <>{children({ user, config, onLogout, loggingOut: cleaning || logout.isPending })}</>;
}
