import { cn } from "../../components/cn";
import { formatR, rTone } from "../../lib/outcome";
import type { RecordFigures, RecordStatistics, TrackRecordSummary } from "./types";

export function formatWinRate(rate: number | null): string {
  return rate === null ? "—" : `${Math.round(rate * 1000) / 10}%`;
}

function Figure({ label, value, tone, hint, note }: { label: string; value: string; tone?: string; hint?: string; note?: string }) {
  return (
    <div className="rounded-xl bg-field px-3 py-2.5">
      <dt className="text-[11px] uppercase tracking-wide text-muted">{label}</dt>
      <dd className={cn("mt-0.5 font-mono text-lg font-semibold text-fg", tone)} title={hint}>
        {value}
      </dd>
      {note ? <dd className="mt-0.5 text-xs text-muted">{note}</dd> : null}
    </div>
  );
}

/** "-1.29 to +2.62 R": the 95 % interval of the average R, or a dash under two decided ideas. */
export function formatInterval(interval: number[] | null | undefined): string {
  if (!interval || interval.length !== 2) return "—";
  return `${formatR(interval[0]).replace(" R", "")} to ${formatR(interval[1])}`;
}

function formatHours(hours: number | null): string {
  if (hours === null) return "—";
  return hours >= 48 ? `${Math.round((hours / 24) * 10) / 10} days` : `${hours} h`;
}

/**
 * The figures of a record: results first, then counts (the public "deleted after publishing" count included).
 * With `statistics` (one educator's page) the 95 % interval of the average R sits beside win rate and total R,
 * and a small sample says so above them.
 */
export function Figures({
  record,
  statistics,
  compact = false,
}: {
  record: RecordFigures;
  statistics?: RecordStatistics;
  compact?: boolean;
}) {
  const main = [
    { label: "Win rate", value: formatWinRate(record.winRate), hint: "wins / (wins + losses)" },
    { label: "Total R", value: formatR(record.totalR), tone: rTone(record.totalR) },
    ...(statistics
      ? [
          {
            label: "Average R, 95 % range",
            value: formatInterval(statistics.averageRInterval95),
            hint: "Where the true average R lies with 95 % confidence (Student's t), given how few or many ideas decided",
          },
        ]
      : []),
    { label: "Completed", value: String(record.completed) },
    { label: "Average R", value: formatR(record.averageR), tone: rTone(record.averageR) },
  ];
  const streaks = statistics
    ? [
        { label: "Longest win streak", value: String(statistics.longestWinStreak) },
        { label: "Longest loss streak", value: String(statistics.longestLossStreak) },
        { label: "Average holding time", value: formatHours(statistics.averageHoldingHours), hint: "Publishing to closing" },
      ]
    : [];
  const more = [
    { label: "Profit factor", value: record.profitFactor === null ? "—" : record.profitFactor.toFixed(2) },
    { label: "Max drawdown", value: formatR(record.maxDrawdownR ? -record.maxDrawdownR : 0), tone: rTone(-record.maxDrawdownR) },
    { label: "Best", value: formatR(record.bestR), tone: rTone(record.bestR) },
    { label: "Worst", value: formatR(record.worstR), tone: rTone(record.worstR) },
    { label: "Wins / losses", value: `${record.wins} / ${record.losses}` },
    { label: "Not triggered", value: String(record.notTriggered) },
    { label: "Active", value: String(record.active) },
    {
      label: "Deleted after publishing",
      value: String(record.deletedAfterPublish),
      note: "Open ideas deleted more than 15 minutes after publishing",
    },
    ...streaks,
  ];
  return (
    <div className="space-y-2">
      {statistics?.sampleSizeNote ? (
        <p role="note" className="rounded-xl border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-200">
          {statistics.sampleSizeNote}
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {(compact ? main : [...main, ...more]).map((f) => (
          <Figure key={f.label} {...f} />
        ))}
      </dl>
    </div>
  );
}

/** The same ideas as the price checks settled them (decision 0050), and how often both verdicts agree. */
export function VerifiedFigures({ record }: { record: Pick<TrackRecordSummary, "verified" | "agreementRate"> }) {
  const v = record.verified;
  const figures = [
    { label: "Win rate", value: formatWinRate(v.winRate), hint: "wins / (wins + losses), ambiguous candles counted as the stop" },
    { label: "Total R", value: formatR(v.totalR), tone: rTone(v.totalR) },
    { label: "Settled", value: String(v.settled) },
    { label: "Average R", value: formatR(v.averageR), tone: rTone(v.averageR) },
    { label: "Agreement", value: formatWinRate(record.agreementRate), hint: "ideas whose two verdicts agree" },
    { label: "Wins / losses", value: `${v.wins} / ${v.losses}` },
    { label: "Not verifiable", value: String(v.unverifiable), hint: "counted apart, never as wins or losses" },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {figures.map((f) => (
        <Figure key={f.label} {...f} />
      ))}
    </dl>
  );
}

export type FigureSource = "educator" | "verified";

/** The switch between the educator's own calls and the price-checked verdicts. */
export function FigureSourceSwitch({ value, onChange }: { value: FigureSource; onChange: (value: FigureSource) => void }) {
  const options: Array<{ value: FigureSource; label: string }> = [
    { value: "educator", label: "Educator's calls" },
    { value: "verified", label: "Price-checked" },
  ];
  return (
    <div role="group" aria-label="Figures from" className="inline-flex rounded-xl border border-line bg-field p-1">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            "min-h-11 rounded-lg px-3 text-sm font-medium text-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:min-h-9",
            value === o.value && "bg-card text-fg shadow-sm",
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** Members who journaled the educator's ideas (in the selection), and their own average R (shown from 5 members). */
export function FollowersLine({ record }: { record: Pick<TrackRecordSummary, "followersCount" | "followersAverageR"> }) {
  if (record.followersCount === 0) return null;
  const who = `${record.followersCount} ${record.followersCount === 1 ? "member" : "members"}`;
  return (
    <p className="text-sm text-muted">
      Followed by {who}
      {record.followersAverageR !== null ? (
        <>
          {" · "}their own average <span className={cn("whitespace-nowrap font-mono", rTone(record.followersAverageR))}>{formatR(record.followersAverageR)}</span>
        </>
      ) : null}
    </p>
  );
}
