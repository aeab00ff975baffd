import { GraduationCap, History } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/Button";
import { EmptyState } from "../../../components/EmptyState";
import { Spinner } from "../../../components/Spinner";
import { IDEA_TYPE_LABEL, MARKET_LABEL, type IdeaType, type Market } from "../../../lib/session";
import { IdeaCard } from "../card/IdeaCard";
import { useTradeIdeasInfinite } from "../api/useTradeIdeas";
import { IdeaListPending, isListPending } from "../card/IdeaListPending";
import { PageHeader } from "../../../components/PageHeader";

export function HistoryPage({ market, ideaType }: { market: Market; ideaType: IdeaType }) {
  const marketLabel = MARKET_LABEL[market];
  const typeLabel = IDEA_TYPE_LABEL[ideaType];
  const [withLesson, setWithLesson] = useState(false);
  const ideas = useTradeIdeasInfinite({ market, ideaType, status: "completed", limit: 12, ...(withLesson ? { lesson: true } : {}) });
  const items = ideas.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: `/customer/${market}`, label: marketLabel }} title={`${typeLabel} Ideas History`} subtitle={marketLabel} />
      <main className="mx-auto max-w-6xl px-4 py-8">
        <p className="text-base font-medium text-fg">Showing completed {ideaType} trade ideas</p>
        <p className="mt-1 text-sm text-muted">This page displays trade ideas that have been marked as successful or unsuccessful</p>
        {/* A toggle button rather than a switch: a finger-wide target on a phone (44 px). */}
        <Button variant={withLesson ? "primary" : "outline"} size="sm" className="mt-4" aria-pressed={withLesson} onClick={() => setWithLesson(!withLesson)}>
          <GraduationCap className="h-4 w-4" aria-hidden="true" />
          With a lesson
        </Button>
        {isListPending(ideas) ? (
          <IdeaListPending query={ideas} failure="Failed to get completed trade ideas" />
        ) : items.length === 0 ? (
          <EmptyState
            className="mt-6"
            icon={History}
            title={withLesson ? `No ${typeLabel} Ideas With a Lesson` : `No Completed ${typeLabel} Ideas`}
            description={
              withLesson
                ? `No completed ${ideaType} trade idea has a lesson yet.`
                : `There are no completed ${ideaType} trade ideas yet. Check back later for updates.`
            }
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
