import { Lock } from "lucide-react";
import { Link } from "react-router";

/** Paid access: once per list, how many educators' open ideas the member's plans leave out, and where to get them. */
export function SeePlansLine({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <p className="mt-6 flex items-center gap-2 rounded-xl border border-dashed border-line bg-card/60 px-4 py-3 text-sm text-fg">
      <Lock className="h-4 w-4 shrink-0 text-muted" aria-hidden="true" />
      <span>
        Ideas from {count} more {count === 1 ? "educator" : "educators"}:{" "}
        <Link to="/plans" className="font-semibold text-emerald-600 hover:underline dark:text-emerald-400">
          see plans
        </Link>
      </span>
    </p>
  );
}
