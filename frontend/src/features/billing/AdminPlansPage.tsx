import { ArrowLeft } from "lucide-react";
import { AdminHeader } from "../../components/AdminHeader";
import type { SessionProps } from "../../lib/session";
import { GrantsCard } from "./GrantsCard";
import { PlansCard } from "./PlansCard";
import { usePlans } from "./usePlans";

/** /admin/plans: plans with their subscribers and revenue, and complimentary access by hand. */
export function AdminPlansPage({ config, onLogout, loggingOut }: SessionProps) {
  const plans = usePlans();
  const educators = plans.data?.educators ?? [];
  return (
    <div className="min-h-dvh bg-surface">
      <AdminHeader
        appName={config.appName}
        title="Plans and access"
        link={{ to: "/admin", label: "Members", icon: ArrowLeft }}
        onLogout={onLogout}
        loggingOut={loggingOut}
      />
      <main className="mx-auto max-w-7xl space-y-4 px-4 py-4 sm:py-6">
        {plans.data && !plans.data.paymentsEnabled ? (
          <p className="rounded-xl border border-amber-500/30 bg-amber-500/5 p-3 text-sm text-fg">
            Payments are not set up yet: plans are shown to visitors, and access is granted here by hand.
          </p>
        ) : null}
        <PlansCard educators={educators} />
        <GrantsCard educators={educators} />
      </main>
    </div>
  );
}
