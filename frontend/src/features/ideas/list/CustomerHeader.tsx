import { CreditCard, History, LayoutGrid, MessageSquare, NotebookPen, UserRound, Users } from "lucide-react";
import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { cn } from "../../../components/cn";
import { PageHeader } from "../../../components/PageHeader";
import { useWhenIdle } from "../../../lib/whenIdle";
import type { Market } from "../../../lib/session";
import { UnseenBell } from "./UnseenBell";
import { useUnseenCounts } from "../api/useUnseenCounts";

const navClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "inline-flex items-center gap-1.5 whitespace-nowrap rounded-lg px-2.5 py-2 text-sm font-medium transition-colors",
    isActive ? "bg-emerald-500/15 text-emerald-600 dark:text-emerald-300" : "text-muted hover:bg-card-hover hover:text-fg",
  );

/**
 * The bell with the unseen total across markets, from its own subscription (the header does not re-render when it
 * arrives); asked for once the page has been painted (lib/whenIdle).
 */
function CountingBell() {
  const unseen = useUnseenCounts(useWhenIdle());
  return <UnseenBell count={unseen.data?.total} failed={unseen.isError} />;
}

export function CustomerHeader({
  appName,
  market,
  onLogout,
  loggingOut,
  isCustomer = true,
  notificationSettings,
}: {
  /** Customers get the unseen-ideas bell and the notification settings. */
  isCustomer?: boolean;
  /** The notification settings' button and dialog (features/notifications), passed in by the app. */
  notificationSettings?: ReactNode;
  appName: string;
  market: Market;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  const links = [
    { to: "/customer/dashboard", label: "Markets", icon: LayoutGrid },
    { to: `/customer/${market}/leverage`, label: "Leverage history", icon: History },
    { to: `/customer/${market}/exchange`, label: "Exchange history", icon: History },
    { to: "/customer/chat", label: "Updates", icon: MessageSquare },
    { to: "/customer/educators", label: "Educators", icon: Users },
    ...(isCustomer
      ? [
          { to: "/customer/journal", label: "Journal", icon: NotebookPen },
          { to: "/customer/billing", label: "Billing", icon: CreditCard },
          { to: "/customer/profile", label: "Profile", icon: UserRound },
        ]
      : []),
  ];
  return (
    <PageHeader
      start={{ kind: "home", to: "/customer/dashboard", label: "Markets", appName }}
      nav={
        // Inline from xl: seven links and the buttons fit the header's 1,120 px there, not below (the menu is used).
        <nav aria-label="Main" className="hidden min-w-0 flex-1 items-center justify-center gap-0.5 xl:flex">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} end className={navClass}>
              {l.label}
            </NavLink>
          ))}
        </nav>
      }
      actions={
        isCustomer ? (
          <>
            <CountingBell />
            {notificationSettings}
          </>
        ) : null
      }
      menu={{ label: "Open menu", entries: links.map((l) => ({ kind: "link" as const, ...l })), inlineFromXl: true }}
      onLogout={onLogout}
      loggingOut={loggingOut}
    />
  );
}
