import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import { ThemeToggle } from "../../components/ThemeToggle";
import { LegalContent } from "./LegalContent";
import { PRIVACY_POLICY, TERMS_OF_USE } from "./legalText";

export function LegalPage({ kind }: { kind: "terms" | "privacy" }) {
  const doc = kind === "terms" ? TERMS_OF_USE : PRIVACY_POLICY;
  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <div className="mx-auto flex max-w-3xl items-center justify-between px-4 py-3">
          <Link to="/" className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-muted hover:text-fg sm:min-h-0">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Home
          </Link>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">
        <LegalContent doc={doc} showTitle />
      </main>
    </div>
  );
}
