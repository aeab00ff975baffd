import { Bell } from "lucide-react";
import { cn } from "../../../components/cn";

/**
 * A bell with the number of unseen ideas across markets; its accessible name reads e.g. "3 new ideas in all markets".
 * `count` is undefined while the counts load, or when they could not be loaded (`failed`): the bell says which,
 * rather than claiming there is nothing new.
 */
export function UnseenBell({ count, failed = false, className }: { count: number | undefined; failed?: boolean; className?: string }) {
  // The server counts up to 100 (UNSEEN_COUNT_CAP), so beyond 99 only "99+" is known, in the name as on the badge.
  const shown = count === undefined ? "" : count > 99 ? "99+" : String(count);
  const label =
    count !== undefined
      ? `${count === 1 ? "1 new idea" : `${shown} new ideas`} in all markets`
      : failed
        ? "New ideas could not be counted"
        : "Counting new ideas in all markets";
  return (
    <span
      role="img"
      aria-label={label}
      title={label}
      className={cn("relative inline-flex h-10 w-10 items-center justify-center rounded-xl border border-line bg-card text-muted", className)}
    >
      <Bell className="h-5 w-5" aria-hidden="true" />
      {count !== undefined && count > 0 ? (
        <span aria-hidden="true" className="absolute -right-1.5 -top-1.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-600 px-1 text-[11px] font-bold leading-none text-white ring-2 ring-surface">
          {shown}
        </span>
      ) : null}
    </span>
  );
}
