import { ChevronRight, Plus } from "lucide-react";
import { Suspense, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Button, buttonClasses } from "../../../components/Button";
import { Dialog } from "../../../components/Dialog";
import type { SessionProps } from "../../../lib/session";
import { EducatorIdeasCarousel } from "./EducatorIdeasCarousel";
import { EducatorNav } from "./EducatorNav";
import { IdeaForm } from "../form/IdeaForm";
import type { Idea } from "../api/types";

/** Which form is open: none, a new idea, or an idea being edited. */
type FormState = { mode: "closed" } | { mode: "create" } | { mode: "edit"; idea: Idea };

/**
 * Your Trade Ideas first (what an educator checks most); "New idea" and a card's Edit open the
 * Create / Edit Trade Idea form in a dialog. `profileButton` (mounted by src/app): the nav's profile control;
 * `trackRecord` (also from src/app): the educator's own track record, below their ideas.
 */
export function EducatorDashboardPage({
  user,
  config,
  onLogout,
  loggingOut,
  profileButton,
  trackRecord,
}: SessionProps & { profileButton?: ReactNode; trackRecord?: ReactNode }) {
  const [form, setForm] = useState<FormState>({ mode: "closed" });
  const close = () => setForm({ mode: "closed" });
  const editing = form.mode === "edit" ? form.idea : undefined;

  return (
    <div className="min-h-dvh bg-surface">
      <EducatorNav appName={config.appName} onLogout={onLogout} loggingOut={loggingOut} profileButton={profileButton} />
      <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        <p className="text-sm text-muted">Educator Dashboard</p>
        <h1 className="mt-1 text-2xl font-bold text-fg sm:text-3xl">Welcome back, {user.displayName || user.firstName}</h1>

        {/* No name of its own: the carousel inside is the region named "Your Trade Ideas" (two would be one too many). */}
        <section className="mt-6">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="your-ideas" className="text-xl font-semibold text-fg">
              Your Trade Ideas
            </h2>
            <div className="flex items-center gap-2">
              <Link to="/educator/ideas" className={buttonClasses("ghost", "sm")}>
                My Trade Ideas
                <ChevronRight className="h-4 w-4" aria-hidden="true" />
              </Link>
              <Button size="sm" onClick={() => setForm({ mode: "create" })}>
                <Plus className="h-4 w-4" aria-hidden="true" />
                New idea
              </Button>
            </div>
          </div>
          <EducatorIdeasCarousel educatorId={user.id} onEdit={(idea) => setForm({ mode: "edit", idea })} />
        </section>
        {trackRecord ? (
          <Suspense fallback={null}>
            <div className="mt-8">{trackRecord}</div>
          </Suspense>
        ) : null}
      </main>

      <Dialog
        title={editing ? "Edit Trade Idea" : "Create Trade Idea"}
        open={form.mode !== "closed"}
        onOpenChange={(open) => (open ? undefined : close())}
        className="max-w-3xl"
      >
        <IdeaForm key={editing?.id ?? "new"} educatorId={user.id} editing={editing} onCancelEdit={close} onSaved={close} />
      </Dialog>
    </div>
  );
}
