import { forwardRef, type InputHTMLAttributes } from "react";
import { cn } from "./cn";

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  return (
    <input
      ref={ref}
      className={cn(
        "h-12 w-full rounded-xl border border-line bg-field px-4 text-base text-fg placeholder:text-muted/70",
        "focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30",
        "disabled:opacity-60",
        className,
      )}
      {...props}
    />
  );
});
