import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { toast } from "../lib/notify";
import { cn } from "./cn";

export const COPIED_MS = 2000;

/** Copies `value` to the clipboard: toast 'Copied!' / '{label} copied to clipboard.', check icon for 2 s. */
export function CopyButton({ label, value, className }: { label: string; value: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      toast.error("Copy failed", { description: `Could not copy ${label}.` });
      return;
    }
    toast.success("Copied!", { description: `${label} copied to clipboard.` });
    setCopied(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <button
      type="button"
      aria-label={`Copy ${label}`}
      title={`Copy ${label}`}
      onClick={() => void copy()}
      className={cn(
        "inline-flex h-11 w-11 shrink-0 sm:h-8 sm:w-8 items-center justify-center rounded-lg text-muted transition-colors hover:bg-card-hover hover:text-fg",
        "focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400",
        copied && "text-emerald-500 hover:text-emerald-500",
        className,
      )}
    >
      {copied ? <Check className="h-4 w-4" aria-hidden="true" data-testid="copied-icon" /> : <Copy className="h-4 w-4" aria-hidden="true" />}
    </button>
  );
}
