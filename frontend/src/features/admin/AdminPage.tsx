import * as Tabs from "@radix-ui/react-tabs";
import { CreditCard } from "lucide-react";
import { AdminHeader } from "../../components/AdminHeader";
import type { SessionProps } from "../../lib/session";
import { AuditLogCard } from "./AuditLogCard";
import { InviteCard } from "./InviteCard";
import { MembersCard } from "./MembersCard";

const tab =
  "min-h-11 rounded-lg px-4 text-sm font-semibold text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 data-[state=active]:bg-indigo-500/15 data-[state=active]:text-indigo-700 dark:data-[state=active]:text-indigo-300";

/**
 * /admin: invite customers and manage members on one tab, the audit log on its own (a phone would otherwise scroll
 * through every member to reach it).
 */
export function AdminPage({ user, config, onLogout, loggingOut }: SessionProps) {
  return (
    <div className="min-h-dvh bg-surface">
      <AdminHeader
        appName={config.appName}
        title="Admin"
        link={{ to: "/admin/plans", label: "Plans", icon: CreditCard }}
        onLogout={onLogout}
        loggingOut={loggingOut}
      />
      <main className="mx-auto max-w-7xl px-4 py-4 sm:py-6">
        <Tabs.Root defaultValue="members" className="space-y-4">
          <Tabs.List aria-label="Admin sections" className="flex gap-1 border-b border-line pb-2">
            <Tabs.Trigger value="members" className={tab}>
              Members
            </Tabs.Trigger>
            <Tabs.Trigger value="audit" className={tab}>
              Audit log
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="members" className="space-y-4 focus-visible:outline-none">
            <InviteCard />
            <MembersCard selfId={user.id} />
          </Tabs.Content>
          <Tabs.Content value="audit" className="focus-visible:outline-none">
            <AuditLogCard />
          </Tabs.Content>
        </Tabs.Root>
      </main>
    </div>
  );
}
