import { ArrowLeft, Lightbulb, Plus } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { ThemeToggle } from "../../components/ThemeToggle";
import type { SessionProps } from "../../lib/session";
import { IdeaCard } from "./IdeaCard";
import { MyIdeaActions } from "./MyIdeaActions";
import { useTradeIdeas } from "./useTradeIdeas";
import { IdeaListPending, isListPending } from "./IdeaListPending";

export function MyTradeIdeasPage({ user }: Pick<SessionProps, "user">) {
  const ideas = useTradeIdeas({ educatorId: user.id, limit: 100 });
  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          <Link to="/educator/dashboard" className={buttonClasses("ghost", "sm")}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
            Back
          </Link>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <Link to="/educator/ideas/new" className={buttonClasses("primary", "sm")}>
              <Plus className="h-4 w-4" aria-hidden="true" />
              New Idea
            </Link>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <h1 className="text-2xl font-bold text-fg sm:text-3xl">My Trade Ideas</h1>
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
