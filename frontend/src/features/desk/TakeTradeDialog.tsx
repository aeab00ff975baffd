import { onlineManager } from "@tanstack/react-query";
import { NotebookPen } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Textarea } from "../../components/Textarea";
import { positivePrice, priceText } from "../../lib/positionSize";
import { parseLevel } from "../../lib/riskReward";
import type { Idea } from "./types";
import { newWriteKey, useCreateJournalEntry } from "./useCreateJournalEntry";

/** Size suggested by the panel, rounded so the field reads like a ticket ("20000", "0.033333"). */
function sizeText(units: number | null): string {
  if (units === null) return "";
  return String(Number(units.toFixed(units >= 100 ? 0 : units >= 1 ? 2 : 6)));
}

/**
 * "I took this": records the trade in the customer's private journal. On an idea already taken it first asks
 * whether this is a second entry or the customer meant the one in the journal.
 */
export function TakeTradeDialog({ idea, units, takenEntryId = null }: { idea: Idea; units: number | null; takenEntryId?: number | null }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);
  const [fill, setFill] = useState("");
  const [size, setSize] = useState("");
  const [note, setNote] = useState("");
  const [invalid, setInvalid] = useState<{ fill: boolean; size: boolean }>({ fill: false, size: false });
  const create = useCreateJournalEntry();

  const onOpenChange = (next: boolean) => {
    if (next) {
      setFill(parseLevel(idea.entry1) !== null ? idea.entry1.replace(/,/g, "") : "");
      setSize(sizeText(units));
      setNote("");
      setInvalid({ fill: false, size: false });
      setAsking(takenEntryId !== null);
      create.reset();
    }
    setOpen(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const fillPrice = priceText(fill);
    const units = size.trim() === "" ? null : positivePrice(size);
    const problems = { fill: fillPrice === null, size: size.trim() !== "" && units === null };
    setInvalid(problems);
    if (fillPrice === null || problems.size) return;
    create.mutate(
      { body: { ideaId: idea.id, fillPrice, size: units, note: note.trim() || null }, label: `${idea.pair} ${idea.orderType}`, price: fillPrice, key: newWriteKey() },
      {
        onSuccess: () => {
          toast.success("Saved to your journal", { description: `${idea.pair} ${idea.orderType} at ${fill}` });
          setOpen(false);
        },
      },
    );
    // Without a connection the entry is kept on this device and sent later; the card says "Waiting for connection".
    if (!onlineManager.isOnline()) setOpen(false);
  };

  return (
    <Dialog
      title={`I took ${idea.pair}`}
      description="Private to you: educators never see your journal."
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="secondary" size="sm">
          <NotebookPen className="h-4 w-4" aria-hidden="true" />I took this
        </Button>
      }
    >
      {/* Checked here, in words on the page, rather than by the browser's bubble. */}
      {asking && takenEntryId !== null ? (
        <div className="space-y-3">
          <p className="text-sm text-fg">This idea is already in your journal. Did you add to the position, or do you want to see the trade you recorded?</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button className="flex-1" onClick={() => setAsking(false)}>
              Add a second entry
            </Button>
            <Link
              to={`/customer/journal#entry-${takenEntryId}`}
              className="inline-flex min-h-11 flex-1 items-center justify-center rounded-xl border border-line px-4 text-sm font-semibold text-fg hover:bg-card-hover focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
            >
              Open the existing entry
            </Link>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-3">
          <div>
            <Label htmlFor={`${id}-fill`}>Fill price</Label>
            <Input
              id={`${id}-fill`}
              inputMode="decimal"
              autoComplete="off"
              required
              aria-invalid={invalid.fill || undefined}
              aria-describedby={invalid.fill ? `${id}-fill-error` : undefined}
              value={fill}
              onChange={(e) => setFill(e.target.value)}
            />
            {invalid.fill ? (
              <p id={`${id}-fill-error`} className="mt-1 text-sm font-medium text-rose-600 dark:text-rose-400">
                Enter a price greater than 0
              </p>
            ) : null}
          </div>
          <div>
            <Label htmlFor={`${id}-size`}>Size (units, optional)</Label>
            <Input
              id={`${id}-size`}
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={invalid.size || undefined}
              aria-describedby={invalid.size ? `${id}-size-error` : undefined}
              value={size}
              onChange={(e) => setSize(e.target.value)}
            />
            {invalid.size ? (
              <p id={`${id}-size-error`} className="mt-1 text-sm font-medium text-rose-600 dark:text-rose-400">
                Enter a size greater than 0, or leave it empty
              </p>
            ) : null}
          </div>
          <div>
            <Label htmlFor={`${id}-note`}>Note (optional)</Label>
            <Textarea id={`${id}-note`} rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
          </div>
          {create.isError ? <ErrorAlert message={errorMessage(create.error)} /> : null}
          <Button type="submit" disabled={create.isPending && !create.isPaused} className="w-full">
            {create.isPending && !create.isPaused ? "Saving..." : "Save to journal"}
          </Button>
        </form>
      )}
    </Dialog>
  );
}
