import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn("rounded-2xl border border-line bg-card p-5 shadow-xl shadow-black/5 dark:shadow-black/30", className)}
      {...props}
    />
  );
}
