import { NotebookPen } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Textarea } from "../../components/Textarea";
import { parseLevel } from "../../lib/riskReward";
import type { Idea } from "./types";
import { useCreateJournalEntry } from "./useCreateJournalEntry";

/** Size suggested by the panel, rounded so the field reads like a ticket ("20000", "0.033333"). */
function sizeText(units: number | null): string {
  if (units === null) return "";
  return String(Number(units.toFixed(units >= 100 ? 0 : units >= 1 ? 2 : 6)));
}

/** "I took this": records the trade in the customer's private journal. */
export function TakeTradeDialog({ idea, units }: { idea: Idea; units: number | null }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [fill, setFill] = useState("");
  const [size, setSize] = useState("");
  const [note, setNote] = useState("");
  const create = useCreateJournalEntry();

  const onOpenChange = (next: boolean) => {
    if (next) {
      setFill(parseLevel(idea.entry1) !== null ? idea.entry1.replace(/,/g, "") : "");
      setSize(sizeText(units));
      setNote("");
      create.reset();
    }
    setOpen(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const number = (text: string) => (text.trim() === "" ? null : Number(text.replace(/,/g, "")));
    create.mutate(
      { ideaId: idea.id, fillPrice: number(fill) ?? 0, size: number(size), note: note.trim() || null },
      {
        onSuccess: () => {
          toast.success("Saved to your journal", { description: `${idea.pair} ${idea.orderType} at ${fill}` });
          setOpen(false);
        },
      },
    );
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
      <form onSubmit={submit} className="space-y-3">
        <div>
          <Label htmlFor={`${id}-fill`}>Fill price</Label>
          <Input id={`${id}-fill`} inputMode="decimal" autoComplete="off" required value={fill} onChange={(e) => setFill(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-size`}>Size (units, optional)</Label>
          <Input id={`${id}-size`} inputMode="decimal" autoComplete="off" value={size} onChange={(e) => setSize(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-note`}>Note (optional)</Label>
          <Textarea id={`${id}-note`} rows={3} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        {create.isError ? <ErrorAlert message={errorMessage(create.error)} /> : null}
        <Button type="submit" disabled={create.isPending} className="w-full">
          {create.isPending ? "Saving..." : "Save to journal"}
        </Button>
      </form>
    </Dialog>
  );
}
