import { Users } from "lucide-react";
import type { Idea } from "./types";

type Taken = NonNullable<Idea["taken"]>;

/** An R figure with its sign, as the card writes it: "+1.10 R", "−0.20 R" (a true minus sign). */
export function signedR(r: number): string {
  const sign = r > 0 ? "+" : r < 0 ? "−" : "";
  return `${sign}${Math.abs(r).toFixed(2)} R`;
}

/** "Taken by 5 members · slippage −0.20 R · realised +1.10 R" (parts without a figure are left out). */
export function takenText(taken: Taken): string {
  const parts = [`Taken by ${taken.count} members`];
  if (taken.averageEntrySlippageR !== null) parts.push(`slippage ${signedR(taken.averageEntrySlippageR)}`);
  if (taken.averageRealisedR !== null) parts.push(`realised ${signedR(taken.averageRealisedR)}`);
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
