import type { ReactNode } from "react";
import { LogOut, Menu as MenuIcon, MessageSquare, User } from "lucide-react";
import { Link } from "react-router";
import { Logo } from "../../components/Logo";
import { Menu } from "../../components/Menu";
import { ThemeToggle } from "../../components/ThemeToggle";

const iconLink =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

export function EducatorNav({
  appName,
  onLogout,
  loggingOut,
  profileButton,
}: {
  appName: string;
  onLogout: () => void;
  loggingOut: boolean;
  /** Replaces the profile link (the dashboard mounts the profile dialog here). */
  profileButton?: ReactNode;
}) {
  return (
    <header className="sticky top-0 z-20 border-b border-line bg-surface sm:bg-surface/95">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <Link to="/educator/dashboard" aria-label={`${appName} - Educator Dashboard`} className="inline-flex min-h-11 min-w-11 items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400">
          <Logo name={appName} />
        </Link>
        <div className="flex items-center gap-2">
          <ThemeToggle />
          {profileButton ?? (
            <Link to="/educator/profile" aria-label="Profile" className={iconLink}>
              <User className="h-5 w-5" aria-hidden="true" />
            </Link>
          )}
          <Menu
            label="Menu"
            icon={<MenuIcon className="h-5 w-5" aria-hidden="true" />}
            entries={[
              { kind: "link", label: "Chat", to: "/educator/chat", icon: MessageSquare },
              { kind: "action", label: "Logout", icon: LogOut, onSelect: onLogout, danger: true, disabled: loggingOut },
            ]}
          />
        </div>
      </div>
    </header>
  );
}
