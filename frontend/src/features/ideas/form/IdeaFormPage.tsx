import { useNavigate } from "react-router";
import { Card } from "../../../components/Card";
import type { SessionProps } from "../../../lib/session";
import { IdeaForm } from "./IdeaForm";
import { ListFailure, ListLoading } from "../card/IdeaListPending";
import { useTradeIdea } from "../api/useTradeIdea";
import { PageHeader } from "../../../components/PageHeader";

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
      <PageHeader start={{ kind: "back", to: "/educator/ideas", label: "My Trade Ideas" }} title={heading} width="3xl" />
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
