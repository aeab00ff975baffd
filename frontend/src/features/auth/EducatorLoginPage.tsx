import { ShieldAlert, ShieldCheck } from "lucide-react";
import { LoginForm } from "./LoginForm";
import { LoginShell } from "./LoginShell";
import { useAppConfigValue } from "./useAppConfig";

export function EducatorLoginPage() {
  const config = useAppConfigValue();
  return (
    <LoginShell
      appName={config.appName}
      heading="Educator Login"
      subtitle="Staff Portal"
      icon={ShieldCheck}
      accent="indigo"
    >
      <div className="mb-5 flex items-start gap-2.5 rounded-xl border border-amber-500/30 bg-amber-500/10 px-3.5 py-3 text-sm text-amber-700 dark:text-amber-200">
        <ShieldAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <p>Access is restricted to authorized educators only. All access attempts are logged and monitored.</p>
      </div>
      <LoginForm role="educator" submitLabel="Access Educator Portal" />
    </LoginShell>
  );
}
