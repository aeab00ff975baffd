import { memo, type ReactNode } from "react";
import { AlertTriangle, Clock, Flag, TrendingDown, TrendingUp } from "lucide-react";
import { Link } from "react-router";
import { Badge } from "../../../components/Badge";
import { Card } from "../../../components/Card";
import { cn } from "../../../components/cn";
import { useIdeaExtras } from "../../../components/IdeaExtras";
import { initials } from "../../../lib/initials";
import { STATUS_LABEL, directionLabel, invalidationNote } from "../../../lib/ideaStatus";
import { formatLevel, formatMidPrice, formatR, ideaPrecision } from "../../../lib/format";
import { formatDay, outcomeLabel, rTone } from "../../../lib/outcome";
import { relativeAge } from "../../../lib/relativeAge";
import { R_RULE_SEVERAL_ENTRIES, formatRewardToRisk, plannedEntry } from "../../../lib/riskReward";
import { ChartImage } from "./ChartImage";
import { CopyButton } from "../../../components/CopyButton";
import { RevisionsDialog } from "./RevisionsDialog";
import { LessonBlock } from "./LessonBlock";
import { PriceCheckLine } from "./PriceCheckLine";
import { TakenLine } from "./TakenLine";
import { VideoButton } from "./VideoButton";
import type { Idea } from "../api/types";

export function ideaLevels(idea: Idea): Array<{ label: string; value: string | null }> {
  return [
    { label: "Entry 1", value: idea.entry1 },
    { label: "Entry 2", value: idea.entry2 },
    { label: "Invalidation", value: idea.invalidationLevel },
    { label: "Exit 1", value: idea.exit1 },
    { label: "Exit 2", value: idea.exit2 },
    { label: "Exit 3", value: idea.exit3 },
  ];
}

export function DirectionBadge({ orderType }: { orderType: string }) {
  const bearish = directionLabel(orderType) === "Bearish";
  const Icon = bearish ? TrendingDown : TrendingUp;
  return (
    <Badge tone={bearish ? "red" : "green"}>
      <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      {bearish ? "Bearish" : "Bullish"}
    </Badge>
  );
}

export function StatusBadge({ status }: { status: Idea["status"] }) {
  const tone = status === "successful" ? "green" : status === "unsuccessful" ? "red" : status === "invalidated" ? "amber" : "blue";
  return <Badge tone={tone}>{STATUS_LABEL[status]}</Badge>;
}

function EducatorAvatar({ name, image }: { name: string; image: string | null }) {
  if (image) return <img src={image} alt="" className="h-10 w-10 shrink-0 rounded-full object-cover" />;
  return (
    <span aria-hidden="true" className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-emerald-400 to-teal-600 text-sm font-bold text-slate-950">
      {initials(name) || "?"}
    </span>
  );
}

/**
 * With two entries, the card says which entry its R figures are measured from (one rule for the badge, the size
 * table and the result: decision 0121).
 */
function EntryRule({ idea, precision }: { idea: Idea; precision: number }) {
  if (!idea.entry2) return null;
  const entry = plannedEntry(idea);
  if (entry === null) return null;
  return (
    <p className="-mt-2 text-xs text-muted">
      {R_RULE_SEVERAL_ENTRIES} ({formatMidPrice(entry, precision)}).
    </p>
  );
}

/** Which of the educator's setups the idea is, and why they took it ("Why: ..."), under the levels. */
export function SetupAndReason({ idea }: { idea: Idea }) {
  if (!idea.setupName && !idea.reason) return null;
  return (
    <div className="space-y-1 text-sm">
      {idea.setupName ? (
        <p className="text-xs text-muted">
          Setup: <span className="font-semibold text-fg">{idea.setupName}</span>
        </p>
      ) : null}
      {idea.reason ? (
        <p className="whitespace-pre-line break-words text-fg">
          <span className="font-semibold">Why:</span> {idea.reason}
        </p>
      ) : null}
    </div>
  );
}

/** A completed idea's result: how it ended, when, and R. */
export function OutcomeLine({ idea }: { idea: Idea }) {
  if (!idea.outcome) return null;
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded-xl bg-field px-3 py-2 text-sm">
      <Flag className="h-4 w-4 shrink-0 text-muted" aria-hidden="true" />
      <span className="font-medium text-fg">{outcomeLabel(idea.outcome, idea.closePrice === null ? null : formatLevel(idea.closePrice, ideaPrecision(idea)))}</span>
      {idea.closedAt ? (
        <time dateTime={idea.closedAt} className="text-muted">
          {formatDay(idea.closedAt)}
        </time>
      ) : null}
      {idea.outcome !== "not_triggered" ? <span className={cn("ml-auto font-mono font-semibold", rTone(idea.rMultiple))}>{formatR(idea.rMultiple)}</span> : null}
    </p>
  );
}

/**
 * A trade idea as customers see it (dashboard, history; My Trade Ideas adds the educator's `footer`): every level can be copied,
 * notes are plain text, an invalidated idea shows INVALID with struck-through levels. Memoised: a list's page
 * re-renders as its other queries answer (counts, settings, the desk), and an unchanged card need not.
 */
export const IdeaCard = memo(function IdeaCard({
  idea,
  showStatus = false,
  readOnly = false,
  className,
  footer,
  priority = false,
}: {
  idea: Idea;
  /** The card is first on screen: its chart loads at once, with high priority (see ChartImage). */
  priority?: boolean;
  showStatus?: boolean;
  /** History cards: the record of a closed idea, without the desk (no size panel, no "I took this"). */
  readOnly?: boolean;
  className?: string;
  /** Controls below the card's content (the educator's actions on My Trade Ideas). */
  footer?: ReactNode;
}) {
  const invalid = idea.status === "invalidated";
  const rr = formatRewardToRisk(idea);
  const images = idea.imageUrls.length > 0 ? idea.imageUrls : idea.chartUrl ? [idea.chartUrl] : [];
  const educatorName = idea.educatorName || "Professional Educator";
  const extras = useIdeaExtras();
  const precision = ideaPrecision(idea);

  return (
    <Card className={cn("flex h-full flex-col gap-4 p-4 sm:p-5", className)}>
      <article aria-label={`${idea.pair} trade idea`} className="flex h-full flex-col gap-4">
        <header className="flex items-start gap-3">
          <EducatorAvatar name={educatorName} image={idea.educatorImage} />
          <div className="min-w-0 flex-1">
            {idea.educatorSlug ? (
              <Link to={`/customer/educators/${idea.educatorSlug}`} className="-my-2.5 block truncate py-2.5 font-semibold text-fg hover:underline sm:my-0 sm:py-0 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400">
                {educatorName}
              </Link>
            ) : extras.educator ? (
              extras.educator(idea.educatorId, educatorName)
            ) : (
              <p className="truncate font-semibold text-fg">{educatorName}</p>
            )}
            <p className="flex items-center gap-1 text-xs text-muted">
              <Clock className="h-3 w-3 shrink-0" aria-hidden="true" />
              {/* The age stays whole ("9h ago"); a long specialty gives way to it. */}
              <time dateTime={idea.createdAt} className="shrink-0 whitespace-nowrap">
                {relativeAge(idea.createdAt)}
              </time>
              {idea.specialty ? <span className="min-w-0 truncate">· {idea.specialty}</span> : null}
            </p>
          </div>
          {idea.isNew ? <Badge className="bg-rose-600 text-white ring-rose-600">NEW</Badge> : null}
        </header>

        <div>
          <div className="flex flex-wrap items-center gap-2">
            <h2 className={cn("text-xl font-bold tracking-tight text-fg", invalid && "line-through decoration-amber-500")}>{idea.pair}</h2>
            {invalid ? (
              <Badge tone="amber">INVALID</Badge>
            ) : showStatus ? (
              <StatusBadge status={idea.status} />
            ) : null}
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <Badge tone="violet">{idea.ideaType}</Badge>
            <DirectionBadge orderType={idea.orderType} />
            <Badge>{idea.timeFrame}</Badge>
            {rr ? <Badge tone="blue">{rr}</Badge> : null}
            {idea.editedAfterPublish ? <Badge tone="amber">Edited after publishing</Badge> : null}
          </div>
        </div>

        {idea.outcome ? <OutcomeLine idea={idea} /> : null}
        <PriceCheckLine idea={idea} />
        <TakenLine idea={idea} />

        {invalid ? (
          <p role="note" className="flex items-start gap-2 rounded-xl border border-amber-500/30 bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-200">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {invalidationNote(idea.orderType, formatLevel(idea.invalidationLevel, precision))}
          </p>
        ) : null}

        <dl className="grid grid-cols-2 gap-2">
          {ideaLevels(idea)
            .filter((l): l is { label: string; value: string } => Boolean(l.value))
            .map((level) => (
              <div key={level.label} className="relative min-w-0 rounded-xl bg-field py-1.5 pl-3 pr-12 sm:pr-10">
                <dt className={cn("text-[11px] uppercase tracking-wide", level.label === "Invalidation" ? "text-rose-700 dark:text-rose-400" : "text-muted")}>
                  {level.label}
                </dt>
                <dd className={cn("truncate font-mono text-sm font-semibold text-fg", invalid && "line-through decoration-amber-500")}>
                  {formatLevel(level.value, precision)}
                  {/* Inside the dd (a dl holds only dt/dd groups), placed at the row's right edge. */}
                  <CopyButton label={level.label} value={level.value} className="absolute right-0.5 top-1/2 -translate-y-1/2 sm:right-1" />
                </dd>
              </div>
            ))}
        </dl>

        <EntryRule idea={idea} precision={precision} />

        <SetupAndReason idea={idea} />

        <LessonBlock idea={idea} />

        {extras.desk && !readOnly ? extras.desk(idea) : null}

        {idea.notes ? (
          <div>
            <p className="text-xs font-semibold uppercase tracking-wide text-muted">Notes</p>
            <p className="mt-1 whitespace-pre-line break-words text-sm text-fg">{idea.notes}</p>
          </div>
        ) : null}

        {images.length > 0 ? <ChartImage urls={images} fullUrls={idea.imageFullUrls} alt={`${idea.pair} chart`} priority={priority} /> : null}

        {idea.videoUrl || idea.audioUrl ? (
          <div className="space-y-2">
            {idea.videoUrl ? <VideoButton url={idea.videoUrl} pair={idea.pair} /> : null}
            {idea.audioUrl ? (
              <div>
                <p className="text-xs font-semibold uppercase tracking-wide text-muted">Voice explanation</p>
                <audio controls preload="none" src={idea.audioUrl} aria-label="Voice explanation" className="mt-1 w-full" />
              </div>
            ) : null}
          </div>
        ) : null}

        {idea.edited ? (
          <div className="mt-auto flex justify-end">
            <RevisionsDialog ideaId={idea.id} pair={idea.pair} precision={precision} />
          </div>
        ) : null}
        {footer}
      </article>
    </Card>
  );
});
