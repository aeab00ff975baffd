import { cn } from "../../components/cn";
import { formatNumber, formatR, formatRate, formatSigned } from "../../lib/format";
import { rTone } from "../../lib/outcome";
import type { Coverage, RecordFigures, RecordStatistics, TrackRecordSummary } from "./types";

export function formatWinRate(rate: number | null): string {
  return formatRate(rate);
}

/** One figure of a record: its label over its value, with an optional note below (the record's tiles, the challenge's). */
export function Figure({ label, value, tone, hint, note }: { label: string; value: string; tone?: string; hint?: string; note?: string }) {
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
  return `${formatSigned(interval[0] ?? 0)} to ${formatR(interval[1])}`;
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
    // In a compact card the range is a note under the average (a tile of its own wraps in a narrow row).
    ...(statistics && !compact
      ? [
          {
            label: "Average R, 95 % range",
            value: formatInterval(statistics.averageRInterval95),
            hint: "Where the true average R lies with 95 % confidence (Student's t), given how few or many ideas decided",
          },
        ]
      : []),
    { label: "Completed", value: String(record.completed) },
    {
      label: "Average R",
      value: formatR(record.averageR),
      tone: rTone(record.averageR),
      ...(statistics && compact && statistics.averageRInterval95
        ? { note: `95 % range ${formatInterval(statistics.averageRInterval95)}` }
        : {}),
    },
  ];
  const streaks = statistics
    ? [
        { label: "Longest win streak", value: String(statistics.longestWinStreak) },
        { label: "Longest loss streak", value: String(statistics.longestLossStreak) },
        { label: "Average holding time", value: formatHours(statistics.averageHoldingHours), hint: "Publishing to closing" },
      ]
    : [];
  const more = [
    { label: "Profit factor", value: record.profitFactor === null ? "—" : formatNumber(record.profitFactor) },
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

/** The educators list: the price-checked total R and win rate beside the educator's own, and the agreement rate. */
export function PriceCheckedSummary({
  record,
}: {
  record: Pick<TrackRecordSummary, "verified" | "agreementRate" | "totalR" | "winRate">;
}) {
  const v = record.verified;
  const rows = [
    { label: "Total R", own: formatR(record.totalR), checked: formatR(v.totalR), tone: rTone(v.totalR) },
    { label: "Win rate", own: formatWinRate(record.winRate), checked: formatWinRate(v.winRate) },
  ];
  return (
    <dl aria-label="Educator's calls and price-checked" className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
      {rows.map((r) => (
        <div key={r.label} className="min-w-0 rounded-xl bg-field px-3 py-2">
          <dt className="text-[11px] uppercase tracking-wide text-muted">{r.label}, price-checked</dt>
          <dd className={cn("font-mono font-semibold text-fg", r.tone)}>{r.checked}</dd>
          <dd className="whitespace-nowrap text-xs text-muted">educator&apos;s {r.own}</dd>
        </div>
      ))}
      <div className="col-span-2 min-w-0 rounded-xl bg-field px-3 py-2 sm:col-span-1">
        <dt className="text-[11px] uppercase tracking-wide text-muted">Agreement</dt>
        <dd className="font-mono font-semibold text-fg" title="ideas whose two verdicts agree">
          {formatWinRate(record.agreementRate)}
        </dd>
        <dd className="truncate text-xs text-muted">{v.settled} settled</dd>
      </div>
    </dl>
  );
}

export type FigureSource = "educator" | "verified";

/**
 * What the view covers: "68 of 81 ideas price-checked; 13 could not be checked: why" (the reasons one tap away),
 * or, for the educator's calls, every completed idea and how many of them the price checks also settled.
 */
export function CoverageLine({ coverage, source }: { coverage: Coverage; source: FigureSource }) {
  const { completed, priceChecked, notChecked } = coverage;
  const lead =
    source === "verified"
      ? `${priceChecked} of ${completed} ideas price-checked`
      : `All ${completed} completed ideas as the educator called them; ${priceChecked} of them price-checked`;
  return (
    <div role="group" aria-label="What these figures cover" className="text-sm text-muted">
      {notChecked === 0 ? (
        <p>{lead}.</p>
      ) : (
        <details>
          <summary className="cursor-pointer">
            {lead}; {notChecked} could not be checked: <span className="font-medium text-emerald-700 underline dark:text-emerald-300">why</span>
          </summary>
          <ul className="mt-1 list-disc pl-5">
            {coverage.reasons.map((r) => (
              <li key={r.reason}>
                {r.ideas} {r.ideas === 1 ? "idea" : "ideas"}: {r.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** "Agreement 98.5 % on the 68 price-checked ideas: the price checks give −14.50 R against the educator's calls." */
export function AgreementLine({ record }: { record: Pick<TrackRecordSummary, "agreementRate"> & { coverage: Coverage } }) {
  const c = record.coverage;
  if (c.priceChecked === 0) return null;
  const gap =
    c.rDifference === 0
      ? "the same total R as the educator's calls"
      : `${formatR(c.rDifference)} against the educator's calls (${formatR(c.checkedROnChecked)} vs ${formatR(c.educatorROnChecked)})`;
  return (
    <p className="text-sm text-muted">
      Agreement {formatWinRate(record.agreementRate)} on the {c.priceChecked} price-checked {c.priceChecked === 1 ? "idea" : "ideas"}: the price
      checks give <span className={cn("font-mono", rTone(c.rDifference))}>{gap}</span>.
    </p>
  );
}

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

/** Members who journaled the educator's ideas (in the selection), and the median R of their own closed trades (shown from 5 members). */
export function FollowersLine({ record }: { record: Pick<TrackRecordSummary, "followersCount" | "followersAverageR"> }) {
  if (record.followersCount === 0) return null;
  const who = `${record.followersCount} ${record.followersCount === 1 ? "member" : "members"}`;
  return (
    <p className="text-sm text-muted">
      Followed by {who}
      {record.followersAverageR !== null ? (
        <>
          {" · "}their own median <span className={cn("whitespace-nowrap font-mono", rTone(record.followersAverageR))}>{formatR(record.followersAverageR)}</span>
        </>
      ) : null}
    </p>
  );
}
