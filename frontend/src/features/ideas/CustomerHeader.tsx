import { History, LayoutGrid, LogOut, Menu as MenuIcon, MessageSquare, NotebookPen, UserRound, Users } from "lucide-react";
import { Link, NavLink } from "react-router";
import { Button } from "../../components/Button";
import { cn } from "../../components/cn";
import { Logo } from "../../components/Logo";
import { Menu, type MenuEntry } from "../../components/Menu";
import { useWhenIdle } from "../../lib/whenIdle";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { Market } from "../../lib/session";
import { NotificationSettingsDialog } from "./NotificationSettingsDialog";
import { UnseenBell } from "./UnseenBell";
import { useUnseenCounts } from "./useUnseenCounts";

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
}: {
  /** Customers get the unseen-ideas bell and the notification settings. */
  isCustomer?: boolean;
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
          { to: "/customer/profile", label: "Profile", icon: UserRound },
        ]
      : []),
  ];
  const menuEntries: MenuEntry[] = [
    ...links.map((l) => ({ kind: "link" as const, ...l })),
    { kind: "action", label: "Logout", icon: LogOut, onSelect: onLogout, danger: true, disabled: loggingOut },
  ];

  return (
    <header className="sticky top-0 z-20 border-b border-line bg-surface sm:bg-surface/95">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <Link to="/customer/dashboard" aria-label={`${appName} - Markets`} className="inline-flex min-h-11 min-w-11 shrink-0 items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400">
          <Logo name={appName} className="[&>span:last-child]:hidden sm:[&>span:last-child]:inline" />
        </Link>
        {/* Inline from xl: seven links and the buttons fit the header's 1,120 px there, not below (the menu is used). */}
        <nav aria-label="Main" className="hidden items-center gap-0.5 xl:flex">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} end className={navClass}>
              {l.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          {isCustomer ? (
            <>
              <CountingBell />
              <NotificationSettingsDialog />
            </>
          ) : null}
          <ThemeToggle />
          <div className="hidden xl:block">
            <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut} className="whitespace-nowrap">
              <LogOut className="h-4 w-4" aria-hidden="true" />
              Logout
            </Button>
          </div>
          <div className="xl:hidden">
            <Menu label="Open menu" icon={<MenuIcon className="h-5 w-5" aria-hidden="true" />} entries={menuEntries} />
          </div>
        </div>
      </div>
    </header>
  );
}
