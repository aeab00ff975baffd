import { RefreshCw } from "lucide-react";
import { lazy, useDeferredValue } from "react";
import { Navigate, Outlet } from "react-router";
import { errorMessage } from "../api/errors";
import { Button } from "../components/Button";
import { FullPageSpinner } from "../components/Spinner";
import { useCurrentUser, useCurrentUserIfSignedIn } from "../features/auth/useCurrentUser";
import { WithIdeaExtras } from "./ideaExtras";

/** The live stream's and the push prompt's code; a market page's first screen asks for it with its own (router.tsx). */
export const loadSignedIn = () => import("./SignedIn");

/**
 * The live stream and the push prompt: a chunk of their own, fetched beside the page's. Not wrapped in a
 * Suspense of its own, so the page and the push prompt appear in the same paint: a prompt arriving later
 * would push the page down under the reader's eyes.
 */
const SignedIn = lazy(async () => ({ default: (await loadSignedIn()).SignedIn }));

function SessionError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-surface px-6 text-center">
      <p className="text-fg">{errorMessage(error, "Could not load your session.")}</p>
      <Button variant="secondary" onClick={onRetry}>
        <RefreshCw className="h-4 w-4" aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}

/** Signed-in users only; others go to /login. */
export function RequireAuth() {
  const { data: user, isPending, isError, error, refetch, fetchStatus } = useCurrentUser();
  // The session is often the last of a first screen's requests to answer, and TanStack Query delivers it as a
  // synchronous update (useSyncExternalStore): rendered from it, the whole screen, cards included, was one long
  // task. Rendered from a deferred copy, it is drawn in slices that let the browser breathe; the spinner stays
  // until it is ready.
  const shownUser = useDeferredValue(user);
  // Offline with no session kept on this device: the question waits for a connection, so the login screen (with
  // the offline notice) is shown instead of an endless "Loading..." (issue #39).
  if (isPending && fetchStatus === "paused") return <Navigate to="/login" replace />;
  if (isPending) return <FullPageSpinner />;
  if (isError && user === undefined) return <SessionError error={error} onRetry={() => void refetch()} />;
  if (!user) return <Navigate to="/login" replace />;
  if (user.role === "admin") return <Navigate to="/admin" replace />; // admins use the admin area only
  if (!shownUser) return <FullPageSpinner />;
  return (
    <>
      <SignedIn user={shownUser} />
      <WithIdeaExtras>
        <Outlet />
      </WithIdeaExtras>
    </>
  );
}

/** Educators only (the server enforces it too); a customer goes to /customer/forex. Nest inside RequireAuth. */
export function RequireEducator() {
  const { data: user } = useCurrentUser();
  if (!user) return <Navigate to="/login" replace />;
  if (user.role !== "educator") return <Navigate to="/customer/forex" replace />;
  return <Outlet />;
}

/** Admins only; others go to the admin login (signed-in customers and educators to their own area). */
export function RequireAdmin() {
  const { data: user, isPending, isError, error, refetch, fetchStatus } = useCurrentUser();
  if (isPending && fetchStatus === "paused") return <Navigate to="/admin/login" replace />;
  if (isPending) return <FullPageSpinner />;
  if (isError && user === undefined) return <SessionError error={error} onRetry={() => void refetch()} />;
  if (!user) return <Navigate to="/admin/login" replace />;
  if (user.role !== "admin") return <Navigate to={HOME[user.role]} replace />;
  return <Outlet />;
}

const HOME = { customer: "/customer/dashboard", educator: "/educator/dashboard", admin: "/admin" } as const;

/** The login pages: someone already signed in goes to their dashboard (the page shows while that is checked). */
export function RedirectSignedIn() {
  const { data: user } = useCurrentUserIfSignedIn();
  if (user) return <Navigate to={HOME[user.role]} replace />;
  return <Outlet />;
}
