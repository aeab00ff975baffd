import { KeyRound, UserPlus } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Spinner } from "../../components/Spinner";
import { toast } from "../../lib/notify";
import { DESTINATION } from "./LoginForm";
import { LoginShell } from "./LoginShell";
import { useAccountLink, useSetPasswordWithLink, type LinkKind } from "./useAccountLink";
import { useAppConfigValue } from "./useAppConfig";

const MIN_LENGTH = 8;
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
    if (password.length < MIN_LENGTH) return setProblem(`Password must be at least ${MIN_LENGTH} characters`);
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
        <Link to="/login" className="block text-center text-sm font-semibold text-emerald-600 underline dark:text-emerald-400">
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
        <div>
          <Label htmlFor={`${id}-new`}>New password</Label>
          <Input
            id={`${id}-new`}
            type="password"
            autoComplete="new-password"
            required
            minLength={MIN_LENGTH}
            value={password}
            onChange={(e) => setPasswordValue(e.target.value)}
          />
          <p className="mt-1 text-xs text-muted">At least {MIN_LENGTH} characters.</p>
        </div>
        <div>
          <Label htmlFor={`${id}-repeat`}>Repeat password</Label>
          <Input
            id={`${id}-repeat`}
            type="password"
            autoComplete="new-password"
            required
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
          />
        </div>
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
