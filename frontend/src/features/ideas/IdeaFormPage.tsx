import { ArrowLeft } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Card } from "../../components/Card";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { SessionProps } from "../../lib/session";
import { IdeaForm } from "./IdeaForm";
import { ListFailure, ListLoading } from "./IdeaListPending";
import { useTradeIdea } from "./useTradeIdea";

function EditIdeaForm({ educatorId, ideaId, onDone }: { educatorId: number; ideaId: number; onDone: () => void }) {
  const idea = useTradeIdea(ideaId);
  if (idea.isPending) return <ListLoading />;
  if (idea.isError) return <ListFailure message="Failed to fetch trade ideas" onRetry={() => void idea.refetch()} />;
  return (
    <Card>
      <IdeaForm key={idea.data.id} educatorId={educatorId} editing={idea.data} onCancelEdit={onDone} onSaved={onDone} />
    </Card>
  );
}

/** /educator/ideas/new, and /educator/ideas/{id}/edit when `ideaId` is given; both go back to My Trade Ideas. */
export function IdeaFormPage({ user, ideaId }: Pick<SessionProps, "user"> & { ideaId?: number }) {
  const navigate = useNavigate();
  const done = () => void navigate("/educator/ideas");
  const heading = ideaId ? "Edit Trade Idea" : "Create Trade Idea";
  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
          <Link
            to="/educator/ideas"
            aria-label="Back to My Trade Ideas"
            className="inline-flex h-11 w-11 items-center justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <h1 className="flex-1 text-lg font-bold text-fg sm:text-xl">{heading}</h1>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">
        {ideaId ? (
          <EditIdeaForm educatorId={user.id} ideaId={ideaId} onDone={done} />
        ) : (
          <Card>
            <IdeaForm educatorId={user.id} onSaved={done} />
          </Card>
        )}
      </main>
    </div>
  );
}
