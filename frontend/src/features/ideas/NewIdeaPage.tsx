import { ArrowLeft } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Card } from "../../components/Card";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { SessionProps } from "../../lib/session";
import { IdeaForm } from "./IdeaForm";

export function NewIdeaPage({ user, config }: Pick<SessionProps, "user" | "config">) {
  const navigate = useNavigate();
  return (
    <div className="min-h-dvh bg-surface">
      <title>{`${config.appName} - Create Trade Idea`}</title>
      <header className="sticky top-0 z-10 border-b border-line bg-surface/90 backdrop-blur">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
          <Link
            to="/educator/ideas"
            aria-label="Back to My Trade Ideas"
            className="inline-flex h-10 w-10 items-center justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <h1 className="flex-1 text-lg font-bold text-fg sm:text-xl">Create Trade Idea</h1>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">
        <Card>
          <IdeaForm educatorId={user.id} onSaved={() => void navigate("/educator/ideas")} />
        </Card>
      </main>
    </div>
  );
}
