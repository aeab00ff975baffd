import { TrendingUp } from "lucide-react";
import { cn } from "./cn";

export function Logo({ name, className }: { name: string; className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 font-bold tracking-tight text-fg", className)}>
      <span className="flex h-9 w-9 items-center justify-center rounded-xl bg-emerald-500/15 text-emerald-500">
        <TrendingUp className="h-5 w-5" aria-hidden="true" />
      </span>
      <span className="truncate">{name}</span>
    </span>
  );
}
