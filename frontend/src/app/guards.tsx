import { RefreshCw } from "lucide-react";
import { Navigate, Outlet } from "react-router";
import { errorMessage } from "../api/errors";
import { Button } from "../components/Button";
import { FullPageSpinner } from "../components/Spinner";
import { useCurrentUser } from "../features/auth/useCurrentUser";
import { SignedIn } from "./SignedIn";

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
  const { data: user, isPending, isError, error, refetch } = useCurrentUser();
  if (isPending) return <FullPageSpinner />;
  if (isError && user === undefined) return <SessionError error={error} onRetry={() => void refetch()} />;
  if (!user) return <Navigate to="/login" replace />;
  return (
    <>
      <SignedIn user={user} />
      <Outlet />
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
