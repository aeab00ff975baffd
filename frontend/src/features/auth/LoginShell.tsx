import type { LucideIcon } from "lucide-react";
import type { MouseEventHandler, ReactNode } from "react";
import { Card } from "../../components/Card";
import { ThemeToggle } from "../../components/ThemeToggle";

/** Full literal class names per accent, so Tailwind keeps them in the build. */
const ACCENTS = {
  emerald: {
    glow: "bg-[radial-gradient(ellipse_at_top,rgba(16,185,129,0.14),transparent_60%)]",
    badge: "bg-emerald-500/15 text-emerald-500 ring-emerald-500/30",
    name: "text-emerald-600 dark:text-emerald-400",
  },
  indigo: {
    glow: "bg-[radial-gradient(ellipse_at_top,rgba(99,102,241,0.14),transparent_60%)]",
    badge: "bg-indigo-500/15 text-indigo-500 ring-indigo-500/30",
    name: "text-indigo-500 dark:text-indigo-300",
  },
} as const;

type LoginShellProps = {
  appName: string;
  heading: string;
  subtitle: string;
  icon: LucideIcon;
  accent: keyof typeof ACCENTS;
  onClick?: MouseEventHandler<HTMLDivElement>;
  /** Shown below the card (the customer page's channel link). */
  after?: ReactNode;
  children: ReactNode;
};

/** The frame both login pages share: centred card with the product mark, heading and subtitle. */
export function LoginShell({ appName, heading, subtitle, icon: Icon, accent, onClick, after, children }: LoginShellProps) {
  const colors = ACCENTS[accent];
  return (
    <div
      onClick={onClick}
      // Top-aligned on phones: the card nearly fills the screen, and the channel link that appears below
      // it once /api/config answers must not move what is above it (layout shift); centred from `sm`.
      className={`relative flex min-h-dvh flex-col items-center justify-start bg-surface sm:justify-center ${colors.glow} px-4 py-10`}
    >
      <ThemeToggle className="absolute right-4 top-4" />
      <main className="w-full max-w-md">
        <div className="mb-6 flex flex-col items-center text-center">
          <div className={`mb-4 flex h-14 w-14 items-center justify-center rounded-2xl ring-1 ${colors.badge}`}>
            <Icon className="h-7 w-7" aria-hidden="true" />
          </div>
          <p className={`text-sm font-semibold uppercase tracking-widest ${colors.name}`}>{appName}</p>
        </div>
        <Card className="p-6 sm:p-8">
          <div className="mb-6 text-center">
            <h1 className="text-3xl font-bold text-fg">{heading}</h1>
            <p className="mt-1 text-sm text-muted">{subtitle}</p>
          </div>
          {children}
        </Card>
        {after}
      </main>
    </div>
  );
}
