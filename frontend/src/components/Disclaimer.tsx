import type { ReactNode } from "react";
import { cn } from "./cn";

/** The spec §1 disclaimer text. */
export const DISCLAIMER_TEXT =
  "This platform is for educational purposes only. We do not provide investment advice or broker services, and we do not execute trades. Results shown are not typical. All trading decisions are made at your own risk.";

export function Disclaimer({ className, children }: { className?: string; children?: ReactNode }) {
  return (
    <div className={cn("text-xs leading-relaxed text-muted", className)}>
      <p>{DISCLAIMER_TEXT}</p>
      {children}
    </div>
  );
}
