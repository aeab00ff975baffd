import * as Tabs from "@radix-ui/react-tabs";
import { Download, History } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { errorMessage } from "../../api/errors";
import { Avatar } from "../../components/Avatar";
import { Button, buttonClasses } from "../../components/Button";
import { Card } from "../../components/Card";
import { cn } from "../../components/cn";
import { EmptyState } from "../../components/EmptyState";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Label } from "../../components/Label";
import { NotFoundPage } from "../../components/NotFoundPage";
import { Select } from "../../components/Select";
import { Spinner } from "../../components/Spinner";
import { directionLabel } from "../../lib/ideaStatus";
import { formatR } from "../../lib/format";
import { formatDay, outcomeLabel, rTone } from "../../lib/outcome";
import { BySetup, SetupDescription } from "./BySetup";
import { EquityChart } from "./EquityChart";
import { priceCheckText } from "../../lib/priceCheck";
import { ChallengePanel } from "./ChallengePanel";
import { AgreementLine, CoverageLine, FigureSourceSwitch, Figures, FollowersLine, formatWinRate, type FigureSource } from "./Figures";
import { PageHeader } from "../../components/PageHeader";
import type { RecordFilters, RecordGroup, TrackRecord } from "./types";
import { useCompletedIdeas } from "./useCompletedIdeas";
import { useTrackRecord } from "./useTrackRecord";
import { useTrackRecords } from "./useTrackRecords";

const PERIODS = [
  { value: "", label: "All time" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
  { value: "365", label: "Last 12 months" },
];

function sinceDay(days: string): string | undefined {
  if (!days) return undefined;
  return new Date(Date.now() - Number(days) * 86_400_000).toISOString().slice(0, 10);
}

function FilterSelect({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: Array<{ value: string; label: string }> }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <Label htmlFor={id}>{label}</Label>
      <Select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="mt-1 h-11 text-sm">
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </div>
  );
}

const GROUPS: Array<{ key: keyof Pick<TrackRecord, "byMarket" | "byIdeaType" | "byTimeFrame" | "byMonth">; label: string; heading: string }> = [
  { key: "byMarket", label: "By market", heading: "Market" },
  { key: "byIdeaType", label: "By idea type", heading: "Idea type" },
  { key: "byTimeFrame", label: "By time frame", heading: "Time frame" },
  { key: "byMonth", label: "By month", heading: "Month" },
];

function groupName(key: string): string {
  return key === "forex" ? "Forex" : key === "crypto" ? "Crypto" : key;
}

function GroupTable({ groups, heading }: { groups: RecordGroup[]; heading: string }) {
  if (groups.length === 0) return <p className="py-4 text-sm text-muted">No ideas in this selection yet.</p>;
  // Sized to fit a 390 px phone with every column: small type and tight gaps there, figures never wrapped.
  const th = "py-2 pr-2 text-right align-bottom font-medium sm:pr-3";
  const td = "whitespace-nowrap py-2 pr-2 text-right font-mono sm:pr-3";
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs sm:text-sm">
        <thead className="text-[11px] uppercase tracking-wide text-muted sm:text-xs">
          <tr>
            <th scope="col" className="py-2 pr-2 align-bottom font-medium sm:pr-3">{heading}</th>
            <th scope="col" className={th}>Completed</th>
            <th scope="col" className={th}>Win rate</th>
            <th scope="col" className={th}>Total R</th>
            <th scope="col" className={cn(th, "pr-0 sm:pr-0")}>Average R</th>
          </tr>
        </thead>
        <tbody>
          {groups.map((g) => (
            <tr key={g.key} className="border-t border-line">
              <th scope="row" className="py-2 pr-2 font-medium text-fg sm:pr-3">{groupName(g.key)}</th>
              <td className={td}>{g.completed}</td>
              <td className={td}>{formatWinRate(g.winRate)}</td>
              <td className={cn(td, rTone(g.totalR))}>{formatR(g.totalR)}</td>
              <td className={cn(td, "pr-0 sm:pr-0", rTone(g.averageR))}>{formatR(g.averageR)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The completed ideas of the selection: as the educator called them, or as the price checks settled them. */
function CompletedIdeas({ educatorId, filters, source }: { educatorId: number; filters: RecordFilters; source: FigureSource }) {
  const ideas = useCompletedIdeas(educatorId, filters);
  const items = ideas.data?.pages.flatMap((p) => p.items) ?? [];
  if (ideas.isPending) return <Spinner className="mx-auto h-5 w-5" />;
  if (ideas.isError) return <ErrorAlert message={errorMessage(ideas.error, "Failed to get completed trade ideas")} />;
  if (items.length === 0) return <p className="py-4 text-sm text-muted">None in this selection.</p>;
  return (
    <>
      <ul className="divide-y divide-line">
        {items.map((idea) => {
          const checked = idea.verification?.state === "settled" ? idea.verification : null;
          const shownR = source === "verified" ? (checked && checked.outcome !== "not_triggered" ? checked.rMultiple : null) : idea.rMultiple;
          return (
          <li key={idea.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-fg">
                {idea.pair} <span className="text-sm font-normal text-muted">· {directionLabel(idea.orderType)} · {idea.ideaType} · {idea.timeFrame}</span>
              </p>
              <p className="text-sm text-muted">
                {source === "verified"
                  ? `${idea.verification ? priceCheckText(idea.verification) : "Not price-checked"} · educator's call ${idea.outcome ? outcomeLabel(idea.outcome, idea.closePrice) : idea.status} ${formatR(idea.rMultiple)}`
                  : idea.outcome ? outcomeLabel(idea.outcome, idea.closePrice) : idea.status}
                {idea.closedAt ? (
                  <>
                    {" · "}
                    <time dateTime={idea.closedAt}>{formatDay(idea.closedAt)}</time>
                  </>
                ) : null}
                {idea.editedAfterPublish ? " · Edited after publishing" : null}
              </p>
            </div>
            <span className={cn("font-mono font-semibold", rTone(shownR))}>{formatR(shownR)}</span>
          </li>
          );
        })}
      </ul>
      {ideas.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="secondary" onClick={() => void ideas.fetchNextPage()} disabled={ideas.isFetchingNextPage}>
            {ideas.isFetchingNextPage ? "Loading..." : "Load more"}
          </Button>
        </div>
      ) : null}
    </>
  );
}

/** /customer/educators/:slug: the educator's profile, figures with filters, equity curve, groups and completed ideas. */
export function EducatorPage({ slug }: { slug: string }) {
  const list = useTrackRecords();
  const educator = list.data?.find((r) => r.educator.slug === slug)?.educator;
  const [market, setMarket] = useState("");
  const [ideaType, setIdeaType] = useState("");
  const [timeFrame, setTimeFrame] = useState("");
  const [period, setPeriod] = useState("");
  const [setup, setSetup] = useState("");
  const [source, setSource] = useState<FigureSource>("educator");
  const filters = useMemo<RecordFilters>(
    () => ({
      ...(market ? { market: market as RecordFilters["market"] } : {}),
      ...(ideaType ? { ideaType: ideaType as RecordFilters["ideaType"] } : {}),
      ...(timeFrame ? { timeFrame } : {}),
      ...(period ? { since: sinceDay(period) } : {}),
      ...(setup ? { setup: Number(setup) } : {}),
    }),
    [market, ideaType, timeFrame, period, setup],
  );
  const whole = useTrackRecord(educator?.id, {});
  // One selection for every panel: the switch changes the figures, the curve, the groups and the list together.
  const record = useTrackRecord(educator?.id, filters, source);

  if (list.isPending) {
    return (
      <div className="flex min-h-dvh items-center justify-center bg-surface">
        <Spinner className="h-6 w-6" />
      </div>
    );
  }
  if (list.isError) return <ErrorAlert className="m-4" message={errorMessage(list.error, "Failed to load track records")} />;
  if (!educator) return <NotFoundPage />;

  const timeFrames = (whole.data?.byTimeFrame ?? []).map((g) => ({ value: g.key, label: g.key }));
  const setups = whole.data?.bySetup ?? [];
  const chosenSetup = setups.find((s) => String(s.setupId) === setup);
  const filtered = Object.keys(filters).length > 0;
  // One selection for the whole page: with nothing completed in it, one message stands for every panel.
  // Counted by the educator's calls in both views: a selection no price check settled still shows its switch and
  // says why (the coverage note), rather than an empty page with no way back.
  const empty = record.data !== undefined && record.data.coverage.completed === 0;
  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: "/customer/educators", label: "Educators" }} title={educator.name} subtitle={educator.specialty ?? undefined} />
      <main className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:py-8">
        <Card className="flex flex-col gap-4 p-4 sm:flex-row sm:items-start sm:p-6">
          <Avatar name={educator.name} src={educator.avatarUrl} />
          <div className="min-w-0 flex-1 space-y-2">
            <h2 className="text-2xl font-bold text-fg">{educator.name}</h2>
            <p className="text-sm text-muted">
              {[educator.specialty, educator.yearsExperience ? `${educator.yearsExperience} years of experience` : null, educator.tradingStyle]
                .filter(Boolean)
                .join(" · ")}
            </p>
            {educator.bio ? <p className="whitespace-pre-line text-sm text-fg">{educator.bio}</p> : null}
          </div>
          <a href={`/api/educators/${educator.id}/track-record/ideas.csv`} download className={cn(buttonClasses("outline", "md"), "shrink-0")}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Download CSV
          </a>
        </Card>

        <section aria-labelledby="record-heading" className="space-y-4">
          <h2 id="record-heading" className="text-lg font-bold text-fg">
            Track record
          </h2>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-4">
            <FilterSelect label="Market" value={market} onChange={setMarket} options={[{ value: "", label: "All markets" }, { value: "forex", label: "Forex" }, { value: "crypto", label: "Crypto" }]} />
            <FilterSelect label="Idea type" value={ideaType} onChange={setIdeaType} options={[{ value: "", label: "All types" }, { value: "leverage", label: "Leverage" }, { value: "exchange", label: "Exchange" }]} />
            <FilterSelect label="Time frame" value={timeFrame} onChange={setTimeFrame} options={[{ value: "", label: "All time frames" }, ...timeFrames]} />
            <FilterSelect label="Period" value={period} onChange={setPeriod} options={PERIODS} />
            {setups.length > 0 ? (
              <div className="min-w-0">
                <FilterSelect label="Setup" value={setup} onChange={setSetup} options={[{ value: "", label: "All setups" }, ...setups.map((s) => ({ value: String(s.setupId), label: s.name }))]} />
                {chosenSetup ? <SetupDescription setup={chosenSetup} label={`About ${chosenSetup.name}`} /> : null}
              </div>
            ) : null}
          </div>
          {record.isError ? <ErrorAlert message={errorMessage(record.error, "Failed to load the track record")} /> : null}
          {record.data && empty ? (
            <EmptyState
              icon={History}
              title={filtered ? "No completed ideas in this selection" : "No completed ideas yet"}
              description={filtered ? "Change the market, idea type, time frame, period or setup to see figures." : undefined}
            />
          ) : record.data ? (
            <div className={cn("space-y-4 transition-opacity", record.isPlaceholderData && "opacity-60")} aria-busy={record.isFetching}>
              <FigureSourceSwitch value={source} onChange={setSource} />
              <CoverageLine coverage={record.data.coverage} source={source} />
              <AgreementLine record={record.data} />
              <Figures record={record.data} statistics={record.data.statistics} />
              {source === "educator" ? <FollowersLine record={record.data} /> : null}
              <Card className="p-3 sm:p-4">
                <h3 className="mb-2 text-sm font-semibold text-fg">
                  Equity curve (cumulative R{source === "verified" ? ", price-checked" : ", educator's calls"})
                  {record.data.equityCurve.length > 0 ? (
                    <span className={cn("ml-2 whitespace-nowrap font-mono", rTone(record.data.equityCurve.at(-1)?.cumulativeR))}>
                      now {formatR(record.data.equityCurve.at(-1)?.cumulativeR)}
                    </span>
                  ) : null}
                </h3>
                <EquityChart points={record.data.equityCurve} className="h-64 sm:h-80" />
              </Card>
              <Card className="p-3 sm:p-4">
                <Tabs.Root defaultValue="byMarket">
                  <Tabs.List aria-label="Figures by group" className="flex flex-wrap gap-1 border-b border-line pb-2">
                    {GROUPS.map((g) => (
                      <Tabs.Trigger
                        key={g.key}
                        value={g.key}
                        className="min-h-11 rounded-lg px-3 text-sm font-medium text-muted data-[state=active]:bg-emerald-500/15 data-[state=active]:text-emerald-700 dark:data-[state=active]:text-emerald-300 sm:min-h-9"
                      >
                        {g.label}
                      </Tabs.Trigger>
                    ))}
                  </Tabs.List>
                  {GROUPS.map((g) => (
                    <Tabs.Content key={g.key} value={g.key}>
                      <GroupTable groups={record.data[g.key]} heading={g.heading} />
                    </Tabs.Content>
                  ))}
                </Tabs.Root>
              </Card>
              {record.data.bySetup.length > 0 ? (
                <Card className="p-3 sm:p-4">
                  <BySetup setups={record.data.bySetup} />
                </Card>
              ) : null}
            </div>
          ) : (
            <Spinner className="mx-auto h-5 w-5" />
          )}
        </section>

        {/* A new selection starts a new question (the answer shown is for the selection it was asked on). */}
        <ChallengePanel key={`${market}/${setup}`} educatorId={educator.id} market={filters.market} setup={chosenSetup ? { id: chosenSetup.setupId, name: chosenSetup.name } : undefined} />

        {empty ? null : (
          <section aria-labelledby="completed-heading">
            <Card className="p-4 sm:p-6">
              <h2 id="completed-heading" className="mb-2 text-lg font-bold text-fg">
                Completed ideas{filtered ? " in this selection" : ""}
              </h2>
              <CompletedIdeas educatorId={educator.id} filters={filters} source={source} />
            </Card>
          </section>
        )}
      </main>
    </div>
  );
}
