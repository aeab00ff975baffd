import { forwardRef, type TextareaHTMLAttributes } from "react";
import { cn } from "./cn";

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, ...props },
  ref,
) {
  return (
    <textarea
      ref={ref}
      className={cn(
        "w-full rounded-xl border border-line bg-field px-4 py-3 text-base text-fg placeholder:text-muted/70",
        "focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30",
        "disabled:opacity-60",
        className,
      )}
      {...props}
    />
  );
});
