import { useId, useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { HomeHeader } from "../../components/HomeHeader";
import { MIN_PASSWORD_LENGTH, NewPasswordFields } from "../../components/NewPasswordFields";
import { Spinner } from "../../components/Spinner";
import { useCheckoutState } from "./useCheckoutState";
import { useClaimCheckout } from "./useClaimCheckout";

const HOME = "/customer/dashboard";
const linkClass = "font-semibold text-emerald-600 underline dark:text-emerald-400";

/** A new visitor chooses a password; then the whole app loads signed in (the session cookie is set). */
function SetPasswordForm({ sessionId, email }: { sessionId: string; email: string | null }) {
  const id = useId();
  const claim = useClaimCheckout(sessionId);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password.length < MIN_PASSWORD_LENGTH) return setProblem(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    if (password !== repeat) return setProblem("The passwords do not match");
    setProblem(null);
    claim.mutate(password, { onSuccess: () => window.location.assign(HOME) });
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <p className="text-sm text-muted">
        Choose a password for <span className="font-semibold text-fg">{email}</span> to finish your account.
      </p>
      <NewPasswordFields
        id={id}
        password={password}
        onPassword={setPassword}
        repeat={{ value: repeat, onChange: setRepeat }}
      />
      {problem || claim.isError ? <ErrorAlert message={problem ?? errorMessage(claim.error, "Could not create your account")} /> : null}
      <Button type="submit" size="lg" className="w-full" disabled={claim.isPending}>
        {claim.isPending ? <Spinner className="h-4 w-4" /> : null}
        Create My Account
      </Button>
    </form>
  );
}

/** /billing/done?session_id=...: Stripe's checkout returns here; the server reads the session from Stripe and says
 * what comes next (wait, set a password, sign in first, or done). */
export function CheckoutDonePage() {
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const state = useCheckoutState(sessionId);
  const back = `/billing/done?session_id=${encodeURIComponent(sessionId)}`;

  let body;
  if (!sessionId) {
    body = <ErrorAlert message="This page needs the checkout it returns from." />;
  } else if (state.isPending) {
    body = <Spinner className="mx-auto h-6 w-6" />;
  } else if (state.isError) {
    body = <ErrorAlert message={errorMessage(state.error, "Could not read the checkout")} />;
  } else if (state.data.next === "wait") {
    body = (
      <p role="status" className="text-sm text-muted">
        {state.data.status === "expired" ? "This checkout expired before it was paid." : "Waiting for Stripe to confirm your payment..."}
      </p>
    );
  } else if (state.data.next === "set_password") {
    body = <SetPasswordForm sessionId={sessionId} email={state.data.email} />;
  } else if (state.data.next === "sign_in") {
    body = (
      <p className="text-sm text-fg">
        An account with {state.data.email} already exists.{" "}
        <Link to={`/login?next=${encodeURIComponent(back)}`} className={linkClass}>
          Sign in
        </Link>{" "}
        to add {state.data.planName} to it.
      </p>
    );
  } else {
    body = (
      <p className="text-sm text-fg">
        {state.data.planName} is yours.{" "}
        <Link to={HOME} className={linkClass}>
          See the ideas
        </Link>
      </p>
    );
  }

  return (
    <div className="min-h-dvh bg-surface">
      <HomeHeader />
      <main className="mx-auto max-w-md px-4 py-8">
        <Card className="space-y-4 p-6">
          <h1 className="text-xl font-bold text-fg">Thank you</h1>
          {body}
        </Card>
      </main>
    </div>
  );
}
