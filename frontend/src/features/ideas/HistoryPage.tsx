import { ArrowLeft, History } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { Spinner } from "../../components/Spinner";
import { ThemeToggle } from "../../components/ThemeToggle";
import { IDEA_TYPE_LABEL, MARKET_LABEL, type IdeaType, type Market } from "../../lib/session";
import { IdeaCard } from "./IdeaCard";
import { useTradeIdeasInfinite } from "./useTradeIdeas";
import { IdeaListPending, isListPending } from "./IdeaListPending";

export function HistoryPage({ market, ideaType }: { market: Market; ideaType: IdeaType }) {
  const marketLabel = MARKET_LABEL[market];
  const typeLabel = IDEA_TYPE_LABEL[ideaType];
  const ideas = useTradeIdeasInfinite({ market, ideaType, status: "completed", limit: 12 });
  const items = ideas.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3">
          <Link
            to={`/customer/${market}`}
            aria-label={`Back to ${marketLabel}`}
            className="inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-lg font-bold text-fg sm:text-xl">{typeLabel} Ideas History</h1>
            <p className="text-xs text-muted">{marketLabel}</p>
          </div>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-8">
        <p className="text-base font-medium text-fg">Showing completed {ideaType} trade ideas</p>
        <p className="mt-1 text-sm text-muted">This page displays trade ideas that have been marked as successful or unsuccessful</p>
        {isListPending(ideas) ? (
          <IdeaListPending query={ideas} failure="Failed to get completed trade ideas" />
        ) : items.length === 0 ? (
          <EmptyState
            className="mt-6"
            icon={History}
            title={`No Completed ${typeLabel} Ideas`}
            description={`There are no completed ${ideaType} trade ideas yet. Check back later for updates.`}
          />
        ) : (
          <>
            <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {items.map((idea) => (
                <IdeaCard key={idea.id} idea={idea} showStatus readOnly />
              ))}
            </div>
            {ideas.hasNextPage ? (
              <div className="mt-8 flex justify-center">
                <Button variant="secondary" onClick={() => void ideas.fetchNextPage()} disabled={ideas.isFetchingNextPage}>
                  {ideas.isFetchingNextPage ? <Spinner className="h-4 w-4" /> : null}
                  {ideas.isFetchingNextPage ? "Loading..." : "Load more"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </main>
    </div>
  );
}
