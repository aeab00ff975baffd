import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../components/Button";
import { ThemeToggle } from "../../components/ThemeToggle";

export function ChatHeader({ backTo, backLabel, title, subtitle }: { backTo: string; backLabel: string; title: string; subtitle?: string }) {
  return (
    <header className="z-10 shrink-0 border-b border-line bg-surface/95">
      <div className="mx-auto grid max-w-3xl grid-cols-[1fr_auto_1fr] items-center gap-3 px-4 py-3">
        <Link to={backTo} className={buttonClasses("ghost", "sm", "justify-self-start")}>
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          {backLabel}
        </Link>
        <div className="text-center">
          <h1 className="text-lg font-bold text-fg">{title}</h1>
          {subtitle ? <p className="text-xs text-muted">{subtitle}</p> : null}
        </div>
        <ThemeToggle className="justify-self-end" />
      </div>
    </header>
  );
}
