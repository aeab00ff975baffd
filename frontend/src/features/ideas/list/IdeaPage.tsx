import { Suspense, lazy } from "react";
import { NotFoundPage } from "../../../components/NotFoundPage";
import { ApiError } from "../../../api/errors";
import { MARKET_LABEL, type Market } from "../../../lib/session";
import { IdeaCard } from "../card/IdeaCard";
import { IdeaListPending } from "../card/IdeaListPending";
import { useTradeIdea } from "../api/useTradeIdea";
import { PageHeader } from "../../../components/PageHeader";

// The chart library loads with this page only, after the card: the idea's replay (issue #42) draws its chart.
const IdeaReplay = lazy(() => import("../replay/IdeaReplay").then((m) => ({ default: m.IdeaReplay })));

/** /customer/ideas/:ideaId: one idea's card and its replay, where an "idea closed" notification leads; 404 when it is gone. */
export function IdeaPage({ ideaId }: { ideaId: number }) {
  const idea = useTradeIdea(ideaId);
  if (idea.error instanceof ApiError && idea.error.status === 404) return <NotFoundPage />;
  const market: Market | null = idea.data?.market ?? null;

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader
        start={market ? { kind: "back", to: `/customer/${market}`, label: MARKET_LABEL[market] } : { kind: "back", to: "/customer/dashboard", label: "the dashboard" }}
        title={idea.data ? `${idea.data.pair} Trade Idea` : "Trade Idea"}
        subtitle={market ? MARKET_LABEL[market] : undefined}
        width="3xl"
      />
      <main className="mx-auto max-w-3xl px-4 py-8">
        {idea.data ? <IdeaCard idea={idea.data} showStatus priority /> : <IdeaListPending query={idea} failure="Failed to fetch trade ideas" />}
        {idea.data ? (
          <Suspense fallback={null}>
            <IdeaReplay idea={idea.data} />
          </Suspense>
        ) : null}
      </main>
    </div>
  );
}
