import { useQuery } from "@tanstack/react-query";
import { BellRing, LineChart } from "lucide-react";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { Carousel } from "../../../components/Carousel";
import { cn } from "../../../components/cn";
import { Disclaimer } from "../../../components/Disclaimer";
import { EmptyState } from "../../../components/EmptyState";
import { ExternalLink } from "../../../components/ExternalLink";
import { SeePlansLine } from "../../../components/SeePlansLine";
import { MARKET_LABEL, type Market, type SessionProps } from "../../../lib/session";
import { CustomerHeader } from "./CustomerHeader";
import { IdeaCard } from "../card/IdeaCard";
import { activeIdeasQueryOptions, unseenFirst } from "../api/useActiveIdeas";
import { useMarkSeen } from "../api/useMarkSeen";
import { IdeaListPending, ListLoading, isListPending } from "../card/IdeaListPending";
import type { Idea } from "../api/types";

const SEEN_BATCH_MS = 800;
const NO_IDEAS: Idea[] = [];

/** Collects ids of ideas that came into view and posts them in one batch after a short pause. */
function useSeenBatcher() {
  const markSeen = useMarkSeen();
  const { mutate } = markSeen;
  const sent = useRef(new Set<number>());
  const pending = useRef(new Set<number>());
  const timer = useRef<number | undefined>(undefined);

  const flush = useCallback(() => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const ids = [...pending.current];
    pending.current.clear();
    if (ids.length > 0) mutate({ ideaIds: ids });
  }, [mutate]);

  const schedule = useCallback(() => {
    // A tab in the background is not being read: what arrives there stays NEW until the customer looks.
    if (document.visibilityState !== "visible") return;
    if (pending.current.size > 0 && timer.current === undefined) {
      timer.current = window.setTimeout(flush, SEEN_BATCH_MS);
    }
  }, [flush]);

  useEffect(() => {
    document.addEventListener("visibilitychange", schedule);
    return () => {
      document.removeEventListener("visibilitychange", schedule);
      flush();
    };
  }, [flush, schedule]);

  return useCallback(
    (ids: number[]) => {
      for (const id of ids) {
        if (!sent.current.has(id)) {
          sent.current.add(id);
          pending.current.add(id);
        }
      }
      schedule();
    },
    [schedule],
  );
}

export function MarketDashboardPage({
  config,
  user,
  onLogout,
  loggingOut,
  market,
  notificationSettings,
}: SessionProps & {
  market: Market;
  /** A customer's notification settings button and dialog (features/notifications), composed by the app. */
  notificationSettings?: ReactNode;
}) {
  const label = MARKET_LABEL[market];
  const isCustomer = user.role === "customer";
  // The unseen counts and the notification settings (which make a new idea's NEW tag and count known from
  // its event, without a request) are loaded by the header's bell and the settings dialog the app passes, not here: their
  // answers then re-render those alone, not the page and its carousel.
  const ideas = useQuery({ ...activeIdeasQueryOptions(market), select: (page) => unseenFirst(page.items) });
  const list = useMemo(() => ideas.data ?? NO_IDEAS, [ideas.data]);
  // Paid access: how many educators' open ideas this member's plans leave out (the same cached answer).
  const locked = useQuery({ ...activeIdeasQueryOptions(market), select: (page) => page.lockedEducators ?? 0 }).data ?? 0;
  // Ideas already loaded when the page opens (asked for at startup, or cached) render with the page, in
  // its first paint. Ideas that arrive later render in a transition that yields to the browser every few
  // milliseconds: rendering them all in one task would block input.
  const [listAtMount] = useState(list);
  const cards = useDeferredValue(list, listAtMount);
  const markViewed = useSeenBatcher();
  const loading = ideas.isPending || (list.length > 0 && cards.length === 0);

  const onSlidesInView = useCallback(
    (indexes: number[]) => {
      if (!isCustomer) return;
      const ids = indexes.map((i) => cards[i]).filter((idea) => idea?.isNew).map((idea) => idea!.id);
      if (ids.length > 0) markViewed(ids);
    },
    [isCustomer, cards, markViewed],
  );

  return (
    <div className="flex min-h-dvh flex-col bg-surface">
      <CustomerHeader
        appName={config.appName}
        market={market}
        onLogout={onLogout}
        loggingOut={loggingOut}
        isCustomer={isCustomer}
        notificationSettings={notificationSettings}
      />
      {/* While the cards are on their way the page keeps a screen's height, so the footer does not jump down when they arrive. */}
      <main className={cn("mx-auto w-full max-w-6xl flex-1 px-4 py-8", loading && "min-h-dvh")}>
        <h1 className="text-2xl font-bold text-fg">{label} Trade Ideas</h1>
        <p className="mt-1 text-sm text-muted">Active ideas from our educators, newest first.</p>
        {isListPending(ideas) ? (
          <IdeaListPending query={ideas} failure="Failed to fetch trade ideas" />
        ) : list.length === 0 ? (
          <EmptyState className="mt-6" icon={LineChart} title={`No ${label} trade ideas available`} />
        ) : cards.length === 0 ? (
          <ListLoading />
        ) : (
          // Every chart loads lazily, the first one too, and only once the page has been painted (ChartImage): on
          // a phone it sits below the fold (the first card's text is the page's largest content). Fetched eagerly
          // at high priority, or with the cards' commit, Lighthouse's slow-phone simulation counted it among the
          // downloads the first paint waits for.
          <Carousel label={`${label} trade ideas`} loop className="mt-6" onSlidesInView={onSlidesInView}>
            {cards.map((idea) => (
              <IdeaCard key={idea.id} idea={idea} />
            ))}
          </Carousel>
        )}
        {isCustomer ? <SeePlansLine count={locked} /> : null}
      </main>
      <footer className="border-t border-line bg-card/50">
        <div className="mx-auto max-w-6xl space-y-4 px-4 py-6">
          {config.channelUrl ? (
            <ExternalLink
              href={config.channelUrl}
              className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-emerald-600 hover:underline sm:min-h-0 dark:text-emerald-400"
            >
              <BellRing className="h-4 w-4" aria-hidden="true" />
              Get new idea alerts on our messaging channel
            </ExternalLink>
          ) : null}
          <Disclaimer />
        </div>
      </footer>
    </div>
  );
}
