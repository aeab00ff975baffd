import { LogOut, ShieldCheck } from "lucide-react";
import { Button } from "../../components/Button";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { SessionProps } from "../../lib/session";
import { AuditLogCard } from "./AuditLogCard";
import { InviteCard } from "./InviteCard";
import { MembersCard } from "./MembersCard";

/** /admin: invite customers, manage members, read the audit log (desktop and phone). */
export function AdminPage({ user, config, onLogout, loggingOut }: SessionProps) {
  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/90 sm:backdrop-blur">
        <div className="mx-auto flex max-w-7xl items-center gap-3 px-4 py-3">
          <ShieldCheck className="h-6 w-6 text-indigo-500" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="truncate text-xs text-muted">{config.appName}</p>
            <h1 className="text-xl font-bold text-fg">Admin</h1>
          </div>
          <ThemeToggle />
          <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut}>
            <LogOut className="h-4 w-4" aria-hidden="true" />
            Logout
          </Button>
        </div>
      </header>
      <main className="mx-auto max-w-7xl space-y-4 px-4 py-4 sm:py-6">
        <InviteCard />
        <MembersCard selfId={user.id} />
        <AuditLogCard />
      </main>
    </div>
  );
}
