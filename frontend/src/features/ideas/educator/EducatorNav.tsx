import type { ReactNode } from "react";
import { MessageSquare, User } from "lucide-react";
import { Link } from "react-router";
import { PageHeader } from "../../../components/PageHeader";

const iconLink =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

/** The educator dashboard's PageHeader: the logo, the profile, and a menu with Chat and Logout. */
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
    <PageHeader
      start={{ kind: "home", to: "/educator/dashboard", label: "Educator Dashboard", appName, nameFrom: "always" }}
      actions={
        profileButton ?? (
          <Link to="/educator/profile" aria-label="Profile" className={iconLink}>
            <User className="h-5 w-5" aria-hidden="true" />
          </Link>
        )
      }
      menu={{ label: "Menu", entries: [{ kind: "link", label: "Chat", to: "/educator/chat", icon: MessageSquare }] }}
      onLogout={onLogout}
      loggingOut={loggingOut}
    />
  );
}
