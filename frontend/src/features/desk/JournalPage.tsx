import { Download, NotebookPen, Trash2 } from "lucide-react";
import { useEffect, useId, useState, type FormEvent } from "react";
import { useLocation } from "react-router";
import { errorMessage } from "../../api/errors";
import { Badge } from "../../components/Badge";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { cn } from "../../components/cn";
import { ConfirmDialog } from "../../components/overlays/ConfirmDialog";
import { EmptyState } from "../../components/EmptyState";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Spinner } from "../../components/Spinner";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import { priceText } from "../../lib/positionSize";
import { formatLevel, formatMoney, formatR, formatRate, ideaPrecision } from "../../lib/format";
import { relativeAge } from "../../lib/relativeAge";
import { journalCsv } from "./journalCsv";
import type { Journal, JournalEntry } from "./types";
import { createJournalEntryKey, type JournalCreateWrite } from "./useCreateJournalEntry";
import { useDeleteJournalEntry } from "./useDeleteJournalEntry";
import { useJournal } from "./useJournal";
import { useJournalSummary } from "./useJournalSummary";
import { ManagementCostCard } from "./ManagementCostCard";
import { managementSentence } from "./managementCost";
import { updateJournalEntryKey, useUpdateJournalEntry, type JournalEntryChange } from "./useUpdateJournalEntry";
import { PageHeader } from "../../components/PageHeader";

const PRICE_MESSAGE = "Enter a price greater than 0";

const EDUCATOR_STATUS: Record<NonNullable<JournalEntry["ideaStatus"]>, string> = {
  active: "Active",
  pending: "Active",
  successful: "Successful",
  unsuccessful: "Unsuccessful",
  invalidated: "Invalidated",
};

function download(entries: readonly JournalEntry[]) {
  const url = URL.createObjectURL(new Blob([journalCsv(entries)], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = "trade-journal.csv";
  a.click();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** /customer/journal: the trades the customer took, open and closed, with their own results and totals. */
export function JournalPage() {
  const journal = useJournal();
  const entries = journal.data?.entries ?? [];
  const open = entries.filter((e) => e.status === "open");
  const closed = entries.filter((e) => e.status === "closed");
  const { hash } = useLocation();
  const loaded = journal.data !== undefined;
  // "Open the existing entry" from an idea card: bring that entry into view once the journal is drawn.
  useEffect(() => {
    if (!loaded || !/^#entry-\d+$/.test(hash)) return;
    const target = document.getElementById(hash.slice(1));
    target?.scrollIntoView({ block: "center" });
    target?.focus({ preventScroll: true });
  }, [loaded, hash]);

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: "/customer/dashboard", label: "Markets" }} title="My Journal" />
      <main className="mx-auto max-w-6xl space-y-8 px-4 py-6">
        <p className="text-sm text-muted">Private to you: the trades you took, your results in R and in your account currency, beside the educator&apos;s outcome.</p>
        <KeptEntries />
        {journal.isPending ? (
          <p role="status" className="flex items-center gap-2 text-muted">
            <Spinner className="text-emerald-500" />
            Loading your journal...
          </p>
        ) : journal.isError ? (
          <ErrorAlert message={errorMessage(journal.error)} />
        ) : entries.length === 0 ? (
          <EmptyState icon={NotebookPen} title="No trades yet" description='Use "I took this" on an idea card to record a trade here.' />
        ) : (
          <>
            <Totals journal={journal.data} onDownload={() => download(entries)} />
            <EntryList title="Open" entries={open} />
            <EntryList title="Closed" entries={closed} />
          </>
        )}
      </main>
    </div>
  );
}

/** Trades recorded without a connection: kept on this device until they are sent, then "Saved" or the server's answer. */
function KeptEntries() {
  const writes = useKeptWrites<JournalCreateWrite>(createJournalEntryKey, () => true);
  if (writes.length === 0) return null;
  return (
    <section aria-label="Trades not yet sent" className="space-y-2">
      <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        {writes.map((write) => (
          <li key={write.id}>
            <Card className="flex flex-wrap items-center justify-between gap-2 p-3">
              <span className="font-semibold text-fg">
                {write.variables.label} <span className="font-mono text-sm text-muted">at {write.variables.price}</span>
              </span>
              <WriteStatus state={write.state} message={write.message} savedText="Saved to your journal" />
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Totals({ journal, onDownload }: { journal: Journal; onDownload: () => void }) {
  const t = journal.totals;
  const items = [
    ["Trades", String(t.entries)],
    ["Win rate", formatRate(t.winRate)],
    ["Total R", formatR(t.totalR)],
    ["Total P/L", formatMoney(t.totalPnl, t.accountCurrency, { signed: true })],
  ];
  return (
    <section aria-labelledby="journal-totals" className="space-y-3">
      <div className="flex items-center justify-between gap-3">
        <h2 id="journal-totals" className="text-base font-semibold text-fg">
          Totals
        </h2>
        <Button variant="outline" size="sm" onClick={onDownload}>
          <Download className="h-4 w-4" aria-hidden="true" />
          Download CSV
        </Button>
      </div>
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        {items.map(([label, value]) => (
          <Card key={label} className="p-3">
            <dt className="text-xs uppercase tracking-wide text-muted">{label}</dt>
            <dd className="mt-1 font-mono text-lg font-bold text-fg">{value}</dd>
          </Card>
        ))}
      </dl>
      <TakenVersusCalled totals={t} />
      <JournalSummaryPart />
    </section>
  );
}

/** The customer's own average R beside the educators' called R, over the same closed ideas. */
function TakenVersusCalled({ totals: t }: { totals: Journal["totals"] }) {
  if (t.compared === 0) {
    return <p className="text-sm text-muted">Your results sit beside the educators&apos; once an idea you closed is closed by its educator too.</p>;
  }
  return (
    <Card className="p-3">
      <h3 className="text-sm font-semibold text-fg">You versus the call</h3>
      <dl className="mt-2 grid grid-cols-2 gap-2">
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">Your average R</dt>
          <dd className="mt-1 font-mono text-lg font-bold text-fg">{formatR(t.ownAverageR)}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-muted">Educators&apos; called R</dt>
          <dd className="mt-1 font-mono text-lg font-bold text-fg">{formatR(t.calledAverageR)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-muted">
        Over the same {t.compared} {t.compared === 1 ? "idea" : "ideas"}: your closed trades whose idea the educator has closed.
      </p>
    </Card>
  );
}

function JournalSummaryPart() {
  const summary = useJournalSummary();
  if (summary.isError) return <ErrorAlert message={errorMessage(summary.error)} />;
  return summary.data ? <ManagementCostCard cost={summary.data.managementCost} /> : null;
}

function EntryList({ title, entries }: { title: string; entries: JournalEntry[] }) {
  return (
    <section aria-label={`${title} trades`} className="space-y-3">
      <h2 className="text-base font-semibold text-fg">
        {title} ({entries.length})
      </h2>
      {entries.length === 0 ? <p className="text-sm text-muted">None.</p> : null}
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {entries.map((e) => (
          <li key={e.id}>
            <EntryCard entry={e} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function EntryCard({ entry: e }: { entry: JournalEntry }) {
  const remove = useDeleteJournalEntry();
  const [confirming, setConfirming] = useState(false);
  const result = e.rMultiple === null ? null : e.rMultiple;
  const precision = ideaPrecision(e);
  return (
    <Card className="space-y-3 p-4">
      <article id={`entry-${e.id}`} tabIndex={-1} aria-label={`${e.pair} ${e.orderType} journal entry`} className="space-y-3 focus:outline-none">
        {/* The educator's badge moves under the pair when both do not fit (a closed trade's badge carries its R). */}
        <header className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h3 className="truncate text-lg font-bold text-fg">
              {e.pair} <span className="text-sm font-semibold text-muted">{e.orderType}</span>
            </h3>
            <p className="text-xs text-muted">
              {e.educatorName} · taken <time dateTime={e.createdAt}>{relativeAge(e.createdAt)}</time>
            </p>
          </div>
          <Badge tone={e.ideaStatus === "successful" ? "green" : e.ideaStatus === "unsuccessful" ? "red" : "neutral"}>
            Educator: {e.ideaStatus ? EDUCATOR_STATUS[e.ideaStatus] : "Idea deleted"}
            {e.ideaRMultiple !== null ? ` · ${formatR(e.ideaRMultiple)}` : ""}
          </Badge>
        </header>
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <EntryFigure label="Fill" value={formatLevel(e.fillPrice, precision)} />
          <EntryFigure label="Stop" value={formatLevel(e.invalidationLevel, precision)} />
          {e.size !== null ? <EntryFigure label="Size" value={e.size} /> : null}
          {e.exitPrice !== null ? <EntryFigure label="Exit" value={formatLevel(e.exitPrice, precision)} /> : null}
          {e.status === "closed" ? (
            <div className="col-span-2">
              <dt className="text-[11px] uppercase tracking-wide text-muted">Your result</dt>
              <dd className={cn("font-mono text-base font-bold", result !== null && result < 0 ? "text-rose-600 dark:text-rose-400" : "text-emerald-600 dark:text-emerald-400")}>
                {result === null ? "Can't compute (the stop is not a number)" : `${formatR(result)} · ${formatMoney(e.pnl ?? 0, e.accountCurrency, { signed: true })}`}
              </dd>
              {result !== null && e.checkedRMultiple != null && e.managementCostR != null ? (
                <dd className="mt-1 text-sm text-fg">{managementSentence(result, e.checkedRMultiple, e.managementCostR)}</dd>
              ) : null}
            </div>
          ) : null}
        </dl>
        {e.note ? <p className="whitespace-pre-line break-words text-sm text-fg">{e.note}</p> : null}
        {e.status === "open" ? <CloseForm entry={e} /> : null}
        {remove.isError ? <ErrorAlert message={errorMessage(remove.error)} /> : null}
        <div className="flex justify-end">
          <Button variant="ghost" size="sm" aria-label={`Delete ${e.pair} journal entry`} onClick={() => setConfirming(true)}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Delete
          </Button>
          <ConfirmDialog
            open={confirming}
            onOpenChange={setConfirming}
            title="Delete this journal entry?"
            description="Are you sure you want to delete this journal entry?"
            confirmLabel="Delete"
            danger
            onConfirm={() => remove.mutate(e.id)}
          />
        </div>
      </article>
    </Card>
  );
}

function EntryFigure({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <dt className="text-[11px] uppercase tracking-wide text-muted">{label}</dt>
      <dd className="font-mono font-semibold text-fg">{value}</dd>
    </div>
  );
}

function CloseForm({ entry }: { entry: JournalEntry }) {
  const id = useId();
  const [exit, setExit] = useState("");
  const [invalid, setInvalid] = useState(false);
  const update = useUpdateJournalEntry();
  const kept = latestWrite(useKeptWrites<JournalEntryChange>(updateJournalEntryKey, (write) => write.id === entry.id));
  const submit = (ev: FormEvent) => {
    ev.preventDefault();
    const price = priceText(exit);
    setInvalid(price === null);
    if (price === null) return;
    update.mutate({ id: entry.id, body: { exitPrice: price } });
  };
  return (
    // Checked here, in words on the page, rather than by the browser's bubble.
    <form onSubmit={submit} noValidate className="space-y-2">
      <Label htmlFor={`${id}-exit`} className="text-xs">
        Exit price
      </Label>
      <div className="flex gap-2">
        <Input
          id={`${id}-exit`}
          inputMode="decimal"
          autoComplete="off"
          required
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-exit-error` : undefined}
          value={exit}
          onChange={(ev) => setExit(ev.target.value)}
          className="h-11"
        />
        <Button type="submit" size="sm" disabled={update.isPending && !update.isPaused} className="shrink-0 whitespace-nowrap">
          Close trade
        </Button>
      </div>
      {invalid ? (
        <p id={`${id}-exit-error`} className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {PRICE_MESSAGE}
        </p>
      ) : null}
      {kept ? <WriteStatus state={kept.state} message={kept.message} /> : update.isError ? <ErrorAlert message={errorMessage(update.error)} /> : null}
    </form>
  );
}
