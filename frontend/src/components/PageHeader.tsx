import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { ArrowLeft, LogOut, Menu as MenuIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "./Button";
import { cn } from "./cn";
import { Logo } from "./Logo";
import { Menu, type MenuEntry } from "./Menu";
import { ThemeToggle } from "./ThemeToggle";

const iconLink =
  "inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-10 sm:w-10";

const WIDTH = { "3xl": "max-w-3xl", "6xl": "max-w-6xl", "7xl": "max-w-7xl" } as const;

/** What the header's first control is: the arrow back to a page (named "Back to {label}"), the logo leading home
 * (named "{appName} - {label}"), or an emblem that is no link. */
export type HeaderStart =
  | { kind: "back"; to: string; label: string }
  | { kind: "home"; to: string; label: string; appName: string; nameFrom?: "sm" | "always" }
  | { kind: "emblem"; icon: ReactNode };

export interface PageHeaderProps {
  start: HeaderStart;
  /** The page's h1; pages whose heading is in their content leave it out. */
  title?: string;
  /** A line above the title (the product's name on operators' pages). */
  eyebrow?: string;
  /** A line under the title (the market, the educator). */
  subtitle?: string;
  /** Links between the title and the controls; they take the room in the middle (flex-1) when they show. */
  nav?: ReactNode;
  /** The screen's own controls, before the theme toggle. */
  actions?: ReactNode;
  /** A menu of links; Logout is its last entry when `onLogout` is given. `inlineFromXl`: from xl wide the links
   * are in `nav` and Logout is a button, so the menu shows only below. */
  menu?: { label: string; entries: MenuEntry[]; inlineFromXl?: boolean };
  /** Signed-in screens: Logout, as a button (or in the menu). */
  onLogout?: () => void;
  loggingOut?: boolean;
  width?: keyof typeof WIDTH;
}

function Start({ start }: { start: HeaderStart }) {
  if (start.kind === "back") {
    return (
      <Link to={start.to} aria-label={`Back to ${start.label}`} className={iconLink}>
        <ArrowLeft className="h-5 w-5" aria-hidden="true" />
      </Link>
    );
  }
  if (start.kind === "home") {
    return (
      <Link
        to={start.to}
        aria-label={`${start.appName} - ${start.label}`}
        className="inline-flex min-h-11 min-w-11 shrink-0 items-center rounded-lg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
      >
        {/* On a phone the logo's name gives its room to the controls unless the header has few. */}
        <Logo name={start.appName} className={start.nameFrom === "always" ? undefined : "[&>span:last-child]:hidden sm:[&>span:last-child]:inline"} />
      </Link>
    );
  }
  return <span className="shrink-0">{start.icon}</span>;
}

/**
 * The one header of every screen: its first control (back, home or an emblem), the page's title, the screen's own
 * controls, the theme toggle and, on signed-in screens, Logout. Sticky and opaque on phones, where a translucent
 * header lets the page show through.
 */
export function PageHeader({ start, title, eyebrow, subtitle, nav, actions, menu, onLogout, loggingOut = false, width = "6xl" }: PageHeaderProps) {
  const logout: MenuEntry | null = onLogout ? { kind: "action", label: "Logout", icon: LogOut, onSelect: onLogout, danger: true, disabled: loggingOut } : null;
  const logoutButton =
    onLogout && (!menu || menu.inlineFromXl) ? (
      <div className={menu?.inlineFromXl ? "hidden xl:block" : undefined}>
        <Button variant="outline" size="sm" onClick={onLogout} disabled={loggingOut} className="whitespace-nowrap">
          <LogOut className="h-4 w-4" aria-hidden="true" />
          Logout
        </Button>
      </div>
    ) : null;
  return (
    <header className="sticky top-0 z-20 shrink-0 border-b border-line bg-surface sm:bg-surface/95">
      <div className={cn("mx-auto flex items-center gap-3 px-4 py-3", WIDTH[width])}>
        <Start start={start} />
        {title || eyebrow || subtitle ? (
          <div className="min-w-0 flex-1">
            {eyebrow ? <p className="truncate text-xs text-muted">{eyebrow}</p> : null}
            {/* Wraps on a phone rather than cut: the title names the page. */}
            {title ? <h1 className="text-base font-bold leading-tight text-fg sm:text-xl">{title}</h1> : null}
            {subtitle ? <p className="truncate text-xs text-muted">{subtitle}</p> : null}
          </div>
        ) : null}
        {nav}
        {/* ml-auto: on the right also when nothing fills the middle (no title, no nav). */}
        <div className="ml-auto flex shrink-0 items-center gap-2">
          {actions}
          <ThemeToggle />
          {logoutButton}
          {menu ? (
            <div className={menu.inlineFromXl ? "xl:hidden" : undefined}>
              <Menu label={menu.label} icon={<MenuIcon className="h-5 w-5" aria-hidden="true" />} entries={logout ? [...menu.entries, logout] : menu.entries} />
            </div>
          ) : null}
        </div>
      </div>
    </header>
  );
}

/** A link among the header's controls: its icon, and its name beside it from sm (on a phone the title needs the
 * row; screen readers still read the name). */
export function HeaderLink({ to, label, icon: Icon }: { to: string; label: string; icon: LucideIcon }) {
  return (
    <Link
      to={to}
      className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1.5 text-sm font-medium text-emerald-600 hover:underline dark:text-emerald-400"
    >
      <Icon className="h-4 w-4" aria-hidden="true" />
      <span className="sr-only sm:not-sr-only">{label}</span>
    </Link>
  );
}
