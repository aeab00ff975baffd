import { AlertCircle, Lock, Mail } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { toast } from "../../lib/notify";
import type { Role } from "../../api/client";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Spinner } from "../../components/Spinner";
import { AccountDisabledNotice, accountWasDisabled, forgetAccountDisabled, isAccountDisabled } from "./accountDisabled";
import { useLogin } from "./useLogin";

/** Where each role lands after logging in (also after accepting an invitation or a password reset). */
export const DESTINATION: Record<Role, string> = {
  customer: "/customer/dashboard",
  educator: "/educator/dashboard",
  admin: "/admin",
};

/** `?next=`: a page of this app to return to after signing in (a checkout's return page); anything else is ignored. */
export function returnPath(next: string | null): string | null {
  return next && next.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : null;
}

export function LoginForm({ role, submitLabel }: { role: Role; submitLabel: string }) {
  const id = useId();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = returnPath(params.get("next"));
  const login = useLogin();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (login.isPending) return;
    login.mutate(
      { email: email.trim(), password, selectedRole: role },
      {
        onSuccess: (response) => {
          forgetAccountDisabled();
          toast.success("Login Successful", { description: `Welcome back, ${response.user.firstName}!` });
          void navigate(next ?? DESTINATION[role]);
        },
      },
    );
  };

  const emailId = `${id}-email`;
  const passwordId = `${id}-password`;

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate={false}>
      <div>
        <Label htmlFor={emailId}>Email</Label>
        <div className="relative">
          <Mail className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted" aria-hidden="true" />
          <Input
            id={emailId}
            name="email"
            type="text"
            inputMode="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="you@example.com"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className="pl-10"
          />
        </div>
      </div>
      <div>
        <Label htmlFor={passwordId}>Password</Label>
        <div className="relative">
          <Lock className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted" aria-hidden="true" />
          <Input
            id={passwordId}
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="••••••••"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className="pl-10"
          />
        </div>
      </div>

      {login.isError && isAccountDisabled(login.error) ? (
        <AccountDisabledNotice was={false} />
      ) : !login.isError && accountWasDisabled() ? (
        <AccountDisabledNotice />
      ) : login.isError ? (
        <div
          role="alert"
          className="flex items-start gap-2 rounded-xl border border-rose-500/30 bg-rose-500/10 px-3.5 py-3 text-sm text-rose-600 dark:text-rose-300"
        >
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{errorMessage(login.error, "Login failed")}</span>
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
        {login.isPending ? (
          <>
            <Spinner className="h-4 w-4" />
            Signing In...
          </>
        ) : (
          submitLabel
        )}
      </Button>
    </form>
  );
}
