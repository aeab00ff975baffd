import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, BellOff, BellRing, Bitcoin, ChevronRight, DollarSign, NotebookPen, UserRound } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { DISCLAIMER_TEXT } from "../../../components/Disclaimer";
import { ExternalLink } from "../../../components/ExternalLink";
import type { Market, SessionProps } from "../../../lib/session";
import { activeIdeasQueryOptions } from "../api/useActiveIdeas";
import { useMarkSeen } from "../api/useMarkSeen";
import { UnseenBell } from "./UnseenBell";
import { useUnseenCounts } from "../api/useUnseenCounts";
import { PageHeader } from "../../../components/PageHeader";

const markets = [
  {
    market: "forex" as Market,
    to: "/customer/forex",
    title: "Forex",
    subtitle: "Currency Pairs",
    icon: DollarSign,
    tone: "from-emerald-500/20 to-emerald-500/0 text-emerald-500 ring-emerald-500/30",
  },
  {
    market: "crypto" as Market,
    to: "/customer/crypto",
    title: "Crypto",
    subtitle: "Digital Assets",
    icon: Bitcoin,
    tone: "from-amber-500/20 to-amber-500/0 text-amber-500 ring-amber-500/30",
  },
] as const;

export function MarketChooserPage({
  user,
  config,
  onLogout,
  loggingOut,
  notified,
}: SessionProps & {
  /** Which markets a customer is notified about (their notification settings, features/notifications), passed in by
   * the app; a market switched off says "Notifications Off" and shows no count. */
  notified?: Record<Market, boolean>;
}) {
  const isCustomer = user.role === "customer";
  const queryClient = useQueryClient();
  const unseen = useUnseenCounts(isCustomer);
  const markSeen = useMarkSeen();

  /** Load the market's ideas first (so their NEW tags show once), then mark the whole market seen. */
  const open = (market: Market) => {
    if (!isCustomer) return;
    void queryClient
      .fetchQuery(activeIdeasQueryOptions(market))
      .catch(() => undefined)
      .finally(() => markSeen.mutate({ market }));
  };

  return (
    <div className="min-h-dvh bg-surface">
      {/* Home is this page; the logo links to it to look like every other header (and is named at every width). */}
      <PageHeader
        start={{ kind: "home", to: "/customer/dashboard", label: "Markets", appName: config.appName }}
        actions={
          isCustomer ? (
            <>
              <UnseenBell count={unseen.data?.total} failed={unseen.isError} />
              <Link to="/customer/journal" aria-label="Journal" title="Journal" className={buttonClasses("ghost", "icon")}>
                <NotebookPen className="h-5 w-5" aria-hidden="true" />
              </Link>
              <Link to="/customer/profile" aria-label="Profile" title="Profile" className={buttonClasses("ghost", "icon")}>
                <UserRound className="h-5 w-5" aria-hidden="true" />
              </Link>
            </>
          ) : null
        }
        onLogout={onLogout}
        loggingOut={loggingOut}
        width="3xl"
      />

      <main className="mx-auto max-w-3xl px-4 py-8">
        <p className="text-sm text-muted">Welcome, {user.firstName}</p>
        <h1 className="mt-1 text-3xl font-bold text-fg">Choose Your Market</h1>
        <p className="mt-2 text-sm text-muted">{config.appName} — educational trade ideas for Forex and Crypto.</p>

        <div className="mt-6 grid gap-4 sm:grid-cols-2">
          {markets.map((m) => {
            const Icon = m.icon;
            const count = unseen.data?.[m.market] ?? 0;
            const off = notified ? !notified[m.market] : false;
            return (
              <Link
                key={m.to}
                to={m.to}
                onClick={() => open(m.market)}
                className="group flex rounded-2xl focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
              >
                <Card className="flex min-h-28 w-full items-center gap-4 transition-colors group-hover:bg-card-hover">
                  <span className={`flex h-14 w-14 items-center justify-center rounded-2xl bg-gradient-to-br ring-1 ${m.tone}`}>
                    <Icon className="h-7 w-7" aria-hidden="true" />
                  </span>
                  <span className="flex-1">
                    <span className="flex items-center gap-2">
                      <span className="text-xl font-bold text-fg">{m.title}</span>
                      {!off && count > 0 ? (
                        <span className="inline-flex h-6 min-w-6 items-center justify-center rounded-full bg-rose-600 px-2 text-xs font-bold text-white">
                          {count > 99 ? "99+" : count} new
                        </span>
                      ) : null}
                    </span>
                    <span className="block text-sm text-muted">{m.subtitle}</span>
                    {off ? (
                      <span className="mt-1 inline-flex items-center gap-1 text-xs font-medium text-muted">
                        <BellOff className="h-3.5 w-3.5" aria-hidden="true" />
                        Notifications Off
                      </span>
                    ) : null}
                  </span>
                  <ChevronRight className="h-5 w-5 text-muted transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
                </Card>
              </Link>
            );
          })}
        </div>

        {config.channelUrl ? (
          <ExternalLink
            href={config.channelUrl}
            className="mt-6 flex items-center gap-3 rounded-2xl border border-emerald-500/30 bg-emerald-500/10 px-4 py-3.5 text-sm font-medium text-emerald-700 transition-colors hover:bg-emerald-500/15 dark:text-emerald-300"
          >
            <BellRing className="h-5 w-5 shrink-0" aria-hidden="true" />
            Join the notification group to get alerted when a new idea is sent
          </ExternalLink>
        ) : null}

        <section aria-labelledby="disclaimer-heading" className="mt-8 rounded-2xl border border-amber-500/30 bg-amber-500/5 p-5">
          <h2 id="disclaimer-heading" className="flex items-center gap-2 text-base font-semibold text-amber-700 dark:text-amber-300">
            <AlertTriangle className="h-5 w-5" aria-hidden="true" />
            Important Disclaimer
          </h2>
          <p className="mt-2 text-sm leading-relaxed text-muted">{DISCLAIMER_TEXT}</p>
        </section>

        <nav aria-label="Legal" className="mt-6 flex flex-wrap justify-center gap-x-6 text-sm">
          <ExternalLink href="/terms" className="inline-flex min-h-11 items-center text-muted underline-offset-2 hover:text-fg hover:underline">
            Terms of Service
          </ExternalLink>
          <ExternalLink href="/privacy" className="inline-flex min-h-11 items-center text-muted underline-offset-2 hover:text-fg hover:underline">
            Privacy Policy
          </ExternalLink>
          <Link to="/proof" className="inline-flex min-h-11 items-center text-muted underline-offset-2 hover:text-fg hover:underline">
            How we keep the record honest
          </Link>
        </nav>
      </main>
    </div>
  );
}
