import { Check, Clock, TriangleAlert } from "lucide-react";
import { cn } from "./cn";

export type WriteState = "waiting" | "sending" | "saved" | "refused";

/**
 * One write's state in words: "Waiting for connection" while it is kept on this device, then "Saved" or the
 * server's message. A live region, so the change is announced.
 */
export function WriteStatus({ state, message, savedText = "Saved", className }: { state: WriteState; message?: string | null; savedText?: string; className?: string }) {
  const text = state === "waiting" ? "Waiting for connection" : state === "sending" ? "Sending..." : state === "saved" ? savedText : (message ?? "Not saved");
  const Icon = state === "saved" ? Check : state === "refused" ? TriangleAlert : Clock;
  return (
    <p
      role={state === "refused" ? "alert" : "status"}
      className={cn(
        "inline-flex items-center gap-1.5 text-xs font-medium",
        state === "refused" ? "text-rose-600 dark:text-rose-400" : state === "saved" ? "text-emerald-600 dark:text-emerald-400" : "text-amber-700 dark:text-amber-300",
        className,
      )}
    >
      <Icon className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
      {text}
    </p>
  );
}
