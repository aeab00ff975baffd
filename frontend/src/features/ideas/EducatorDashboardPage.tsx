import { ChevronRight, Plus } from "lucide-react";
import { useRef, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "../../components/Button";
import { Card } from "../../components/Card";
import type { SessionProps } from "../../lib/session";
import { EducatorIdeasCarousel } from "./EducatorIdeasCarousel";
import { EducatorNav } from "./EducatorNav";
import { IdeaForm } from "./IdeaForm";
import type { Idea } from "./types";

/** `profileButton` (mounted by src/app): the nav's profile control, e.g. the profile dialog. */
export function EducatorDashboardPage({ user, config, onLogout, loggingOut, profileButton }: SessionProps & { profileButton?: ReactNode }) {
  const [editing, setEditing] = useState<Idea | undefined>(undefined);
  const formRef = useRef<HTMLElement>(null);

  const edit = (idea: Idea) => {
    setEditing(idea);
    formRef.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };

  return (
    <div className="min-h-dvh bg-surface">
      <title>{`${config.appName} - Educator Dashboard`}</title>
      <EducatorNav appName={config.appName} onLogout={onLogout} loggingOut={loggingOut} profileButton={profileButton} />
      <main className="mx-auto max-w-6xl px-4 py-8">
        <p className="text-sm text-muted">Educator Dashboard</p>
        <h1 className="mt-1 text-2xl font-bold text-fg sm:text-3xl">Welcome back, {user.displayName || user.firstName}</h1>

        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/educator/ideas/new" className={buttonClasses("primary", "md")}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            New Idea
          </Link>
          <Link to="/educator/ideas" className={buttonClasses("secondary", "md")}>
            My Trade Ideas
            <ChevronRight className="h-4 w-4" aria-hidden="true" />
          </Link>
        </div>

        <section ref={formRef} aria-labelledby="idea-form-heading" className="mt-10 scroll-mt-20">
          <h2 id="idea-form-heading" className="text-xl font-semibold text-fg">
            {editing ? "Edit Trade Idea" : "Create Trade Idea"}
          </h2>
          <Card className="mt-4">
            <IdeaForm
              key={editing?.id ?? "new"}
              educatorId={user.id}
              editing={editing}
              onCancelEdit={() => setEditing(undefined)}
              onSaved={() => setEditing(undefined)}
            />
          </Card>
        </section>

        <section aria-labelledby="your-ideas" className="mt-10">
          <h2 id="your-ideas" className="text-xl font-semibold text-fg">
            Your Trade Ideas
          </h2>
          <EducatorIdeasCarousel educatorId={user.id} onEdit={edit} />
        </section>
      </main>
    </div>
  );
}
