import { Loader2 } from "lucide-react";
import { cn } from "./cn";

export function Spinner({ className }: { className?: string }) {
  return <Loader2 className={cn("h-5 w-5 animate-spin", className)} aria-hidden="true" />;
}

export function FullPageSpinner({ label = "Loading..." }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-dvh items-center justify-center gap-3 bg-surface text-muted">
      <Spinner className="h-6 w-6 text-emerald-500" />
      <span>{label}</span>
    </div>
  );
}
