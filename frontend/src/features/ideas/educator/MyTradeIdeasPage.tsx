import { Lightbulb, Plus } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/Button";
import { EmptyState } from "../../../components/EmptyState";
import type { SessionProps } from "../../../lib/session";
import { IdeaCard } from "../card/IdeaCard";
import { MyIdeaActions } from "./MyIdeaActions";
import { useTradeIdeas } from "../api/useTradeIdeas";
import { IdeaListPending, isListPending } from "../card/IdeaListPending";
import { PageHeader } from "../../../components/PageHeader";

export function MyTradeIdeasPage({ user }: Pick<SessionProps, "user">) {
  const ideas = useTradeIdeas({ educatorId: user.id, limit: 100 });
  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader
        start={{ kind: "back", to: "/educator/dashboard", label: "Dashboard" }}
        title="My Trade Ideas"
        actions={
          <Link to="/educator/ideas/new" className={buttonClasses("primary", "sm")}>
            <Plus className="h-4 w-4" aria-hidden="true" />
            New Idea
          </Link>
        }
      />
      <main className="mx-auto max-w-6xl px-4 py-8">
        {isListPending(ideas) ? (
          <IdeaListPending query={ideas} failure="Failed to fetch trade ideas" />
        ) : ideas.data.items.length === 0 ? (
          <EmptyState
            className="mt-6"
            icon={Lightbulb}
            title="No Trade Ideas Yet"
            action={
              <Link to="/educator/ideas/new" className={buttonClasses("primary", "md")}>
                <Plus className="h-4 w-4" aria-hidden="true" />
                Create Your First Idea
              </Link>
            }
          />
        ) : (
          <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {ideas.data.items.map((idea) => (
              <IdeaCard key={idea.id} idea={idea} showStatus footer={<MyIdeaActions idea={idea} />} />
            ))}
          </div>
        )}
      </main>
    </div>
  );
}
