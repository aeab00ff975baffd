import type { ComponentPropsWithoutRef } from "react";
import { cn } from "./cn";

/** A form label (a plain <label>: the first page's JavaScript stays small). */
export function Label({ className, ...props }: ComponentPropsWithoutRef<"label">) {
  return <label className={cn("mb-1.5 block text-sm font-medium text-fg", className)} {...props} />;
}
