import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { ThemeToggle } from "../../components/ThemeToggle";

/** The header of the track-record pages: back, title, theme. */
export function RecordHeader({ back, backLabel, title, subtitle }: { back: string; backLabel: string; title: string; subtitle?: string }) {
  return (
    <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
        <Link
          to={back}
          aria-label={`Back to ${backLabel}`}
          className="inline-flex h-11 w-11 items-center justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-10 sm:w-10"
        >
          <ArrowLeft className="h-5 w-5" aria-hidden="true" />
        </Link>
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-lg font-bold text-fg sm:text-xl">{title}</h1>
          {subtitle ? <p className="truncate text-xs text-muted">{subtitle}</p> : null}
        </div>
        <ThemeToggle />
      </div>
    </header>
  );
}
