import { ArrowLeft } from "lucide-react";
import { Suspense, lazy } from "react";
import { Link } from "react-router";
import { NotFoundPage } from "../../components/NotFoundPage";
import { ThemeToggle } from "../../components/ThemeToggle";
import { ApiError } from "../../api/errors";
import { MARKET_LABEL, type Market } from "../../lib/session";
import { IdeaCard } from "./IdeaCard";
import { IdeaListPending } from "./IdeaListPending";
import { useTradeIdea } from "./useTradeIdea";

// The chart library loads with this page only, after the card.
const PriceChart = lazy(() => import("./PriceChart").then((m) => ({ default: m.PriceChart })));

/** /customer/ideas/:ideaId: one idea's card, where an "idea closed" notification leads; 404 when it is gone. */
export function IdeaPage({ ideaId }: { ideaId: number }) {
  const idea = useTradeIdea(ideaId);
  if (idea.error instanceof ApiError && idea.error.status === 404) return <NotFoundPage />;
  const market: Market | null = idea.data?.market ?? null;

  return (
    <div className="min-h-dvh bg-surface">
      <header className="sticky top-0 z-10 border-b border-line bg-surface sm:bg-surface/95">
        <div className="mx-auto flex max-w-3xl items-center gap-3 px-4 py-3">
          <Link
            to={market ? `/customer/${market}` : "/customer/dashboard"}
            aria-label={market ? `Back to ${MARKET_LABEL[market]}` : "Back to the dashboard"}
            className="inline-flex h-11 w-11 items-center justify-center rounded-xl border border-line bg-card text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-10 sm:w-10"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <div className="min-w-0 flex-1">
            <h1 className="truncate text-lg font-bold text-fg sm:text-xl">{idea.data ? `${idea.data.pair} Trade Idea` : "Trade Idea"}</h1>
            {market ? <p className="text-xs text-muted">{MARKET_LABEL[market]}</p> : null}
          </div>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto max-w-3xl px-4 py-8">
        {idea.data ? <IdeaCard idea={idea.data} showStatus priority /> : <IdeaListPending query={idea} failure="Failed to fetch trade ideas" />}
        {idea.data ? (
          <Suspense fallback={null}>
            <PriceChart idea={idea.data} />
          </Suspense>
        ) : null}
      </main>
    </div>
  );
}
