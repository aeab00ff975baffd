import { Users } from "lucide-react";
import { formatR } from "../../../lib/format";
import type { Idea } from "../api/types";

type Taken = NonNullable<Idea["taken"]>;


/** "Taken by 5 members · median slippage −0.20 R · median realised +1.10 R" (parts without a figure are left out;
 * medians, so a few accounts cannot skew them). */
export function takenText(taken: Taken): string {
  const parts = [`Taken by ${taken.count} members`];
  if (taken.averageEntrySlippageR !== null) parts.push(`median slippage ${formatR(taken.averageEntrySlippageR)}`);
  if (taken.averageRealisedR !== null) parts.push(`median realised ${formatR(taken.averageRealisedR)}`);
  return parts.join(" · ");
}

/** Called versus taken: what members who journaled the idea got (the server sends it from 5 members, unnamed). */
export function TakenLine({ idea }: { idea: Idea }) {
  if (!idea.taken) return null;
  return (
    <p className="flex items-center gap-1.5 text-sm text-muted">
      <Users className="h-4 w-4 shrink-0" aria-hidden="true" />
      <span>{takenText(idea.taken)}</span>
    </p>
  );
}
