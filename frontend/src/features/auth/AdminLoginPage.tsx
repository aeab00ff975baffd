import { KeyRound } from "lucide-react";
import { LoginForm } from "./LoginForm";
import { LoginShell } from "./LoginShell";
import { useAppConfigValue } from "./useAppConfig";

/** /admin/login: operators only (the server refuses customers and educators here, and admins elsewhere). */
export function AdminLoginPage() {
  const config = useAppConfigValue();
  return (
    <LoginShell appName={config.appName} heading="Admin Login" subtitle="Operators" icon={KeyRound} accent="indigo">
      <LoginForm role="admin" submitLabel="Sign In to Admin" />
    </LoginShell>
  );
}
