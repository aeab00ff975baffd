import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { ThemeToggle } from "./ThemeToggle";

/** The header of the public reading pages (legal texts, /proof): back to Home and the theme toggle. Opaque on
 * phones, where a translucent sticky header lets the text show through. */
export function HomeHeader() {
  return (
    <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
      <div className="mx-auto flex max-w-3xl items-center justify-between px-4 py-3">
        <Link to="/" className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-muted hover:text-fg sm:min-h-0">
          <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          Home
        </Link>
        <ThemeToggle />
      </div>
    </header>
  );
}
