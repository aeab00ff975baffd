import { initials } from "../lib/initials";
import { cn } from "./cn";

const sizes = {
  sm: "h-9 w-9 text-xs",
  lg: "h-20 w-20 text-2xl",
} as const;

/** A round avatar: the uploaded image when there is one, otherwise up to two initials. */
export function Avatar({
  name,
  src,
  size = "lg",
  className,
}: {
  name: string;
  src?: string | null;
  size?: keyof typeof sizes;
  className?: string;
}) {
  const text = initials(name) || "?";
  const base = cn("flex shrink-0 items-center justify-center overflow-hidden rounded-full", sizes[size]);
  if (src) {
    return <img src={src} alt="" aria-hidden="true" className={cn(base, "bg-card-hover object-cover", className)} />;
  }
  return (
    <div aria-hidden="true" className={cn(base, "bg-gradient-to-br from-emerald-400 to-teal-600 font-bold text-slate-950", className)}>
      {text}
    </div>
  );
}
