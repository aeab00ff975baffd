import { KeyRound, UserPlus } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { ErrorAlert } from "../../components/ErrorAlert";
import { MIN_PASSWORD_LENGTH, NewPasswordFields } from "../../components/NewPasswordFields";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../lib/notify";
import { DESTINATION } from "./LoginForm";
import { LoginShell } from "./LoginShell";
import { useAccountLink, useSetPasswordWithLink, type LinkKind } from "./useAccountLink";
import { useAppConfigValue } from "./useAppConfig";

const TEXT = {
  invite: { heading: "Welcome", subtitle: "Choose a password to finish your account", submit: "Create My Account", icon: UserPlus },
  reset: { heading: "Reset Password", subtitle: "Choose a new password", submit: "Set New Password", icon: KeyRound },
} as const;

/** /invite/{token} and /reset/{token}: choose a password with a one-use link, then land signed in. */
export function SetPasswordPage({ kind }: { kind: LinkKind }) {
  const { token = "" } = useParams();
  const config = useAppConfigValue();
  const navigate = useNavigate();
  const link = useAccountLink(kind, token);
  const setPassword = useSetPasswordWithLink(kind, token);
  const id = useId();
  const [password, setPasswordValue] = useState("");
  const [repeat, setRepeat] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const text = TEXT[kind];

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password.length < MIN_PASSWORD_LENGTH) return setProblem(`Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
    if (password !== repeat) return setProblem("The passwords do not match");
    setProblem(null);
    setPassword.mutate(password, {
      onSuccess: (response) => {
        toast.success(kind === "invite" ? "Account created" : "Password changed");
        void navigate(DESTINATION[response.user.role], { replace: true });
      },
    });
  };

  let body;
  if (link.isPending) {
    body = <Spinner className="mx-auto h-6 w-6" />;
  } else if (link.isError) {
    body = (
      <div className="space-y-4">
        <ErrorAlert message={errorMessage(link.error, "This link cannot be used.")} />
        <Link to="/login" className="flex min-h-11 items-center justify-center text-sm font-semibold text-emerald-600 underline dark:text-emerald-400">
          Go to the login page
        </Link>
      </div>
    );
  } else {
    body = (
      <form onSubmit={onSubmit} className="space-y-4">
        <p className="text-sm text-muted">
          Account: <span className="font-semibold text-fg">{link.data.email}</span>
        </p>
        <NewPasswordFields
          id={id}
          password={password}
          onPassword={setPasswordValue}
          repeat={{ value: repeat, onChange: setRepeat }}
        />
        {problem || setPassword.isError ? (
          <ErrorAlert message={problem ?? errorMessage(setPassword.error, "Could not set the password")} />
        ) : null}
        <Button type="submit" size="lg" className="w-full" disabled={setPassword.isPending}>
          {setPassword.isPending ? <Spinner className="h-4 w-4" /> : null}
          {text.submit}
        </Button>
      </form>
    );
  }

  return (
    <LoginShell appName={config.appName} heading={text.heading} subtitle={text.subtitle} icon={text.icon} accent="emerald">
      {body}
    </LoginShell>
  );
}
