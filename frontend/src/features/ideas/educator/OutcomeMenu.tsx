import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { CheckCircle2, XCircle } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Button, buttonClasses } from "../../../components/Button";
import { cn } from "../../../components/cn";
import { Dialog } from "../../../components/Dialog";
import { Input } from "../../../components/Input";
import { Label } from "../../../components/Label";
import type { IdeaStatus } from "../../../lib/ideaStatus";
import type { Idea } from "../api/types";
import type { Completion } from "../api/useSetIdeaStatus";

const itemClass =
  "flex w-full cursor-pointer select-none items-center gap-3 rounded-lg px-3 py-2.5 text-sm font-medium text-fg outline-none data-[highlighted]:bg-card-hover";

type Choice = { label: string; completion: Completion } | { label: string; manual: true };

function choices(idea: Idea, status: "successful" | "unsuccessful"): Choice[] {
  const manual: Choice = { label: "Closed at a price…", manual: true };
  if (status === "unsuccessful") return [{ label: "Stopped at invalidation", completion: { outcome: "invalidation" } }, manual];
  const exits = (["exit1", "exit2", "exit3"] as const).filter((exit) => idea[exit]);
  return [...exits.map((exit) => ({ label: `Exit ${exit.slice(-1)} reached`, completion: { outcome: exit } })), manual];
}

/**
 * The Successful / Unsuccessful buttons: each opens a small choice of how the idea ended (which exit was reached,
 * stopped at invalidation, or closed by hand at a price). The first choice is the common case, focused on open.
 */
export function OutcomeMenu({
  idea,
  status,
  label,
  disabled,
  onChoose,
  size = "sm",
}: {
  idea: Idea;
  status: "successful" | "unsuccessful";
  label: string;
  disabled: boolean;
  onChoose: (status: IdeaStatus, completion: Completion) => void;
  size?: "sm" | "md";
}) {
  const [pricing, setPricing] = useState(false);
  const win = status === "successful";
  const Icon = win ? CheckCircle2 : XCircle;
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          disabled={disabled}
          className={cn(buttonClasses("outline", size), "px-2", win ? "text-emerald-600 dark:text-emerald-400" : "text-rose-600 dark:text-rose-400")}
        >
          <Icon className="h-4 w-4 shrink-0" aria-hidden="true" />
          {label}
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content align="start" sideOffset={6} className="z-50 min-w-52 rounded-2xl border border-line bg-card p-1.5 text-fg shadow-2xl">
            <DropdownMenu.Label className="px-3 py-1.5 text-xs text-muted">How did {idea.pair} end?</DropdownMenu.Label>
            {choices(idea, status).map((choice) => (
              <DropdownMenu.Item
                key={choice.label}
                className={itemClass}
                onSelect={() => ("manual" in choice ? setPricing(true) : onChoose(status, choice.completion))}
              >
                {choice.label}
              </DropdownMenu.Item>
            ))}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <ClosePriceDialog
        open={pricing}
        onOpenChange={setPricing}
        pair={idea.pair}
        onSave={(closePrice) => {
          setPricing(false);
          onChoose(status, { outcome: "manual", closePrice });
        }}
      />
    </>
  );
}

function ClosePriceDialog({
  open,
  onOpenChange,
  pair,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  pair: string;
  onSave: (price: string) => void;
}) {
  const id = useId();
  const [price, setPrice] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cleaned = price.trim();
    if (!/^[+-]?[\d,' ]*\.?\d+$/.test(cleaned)) {
      setError("Enter the price the idea was closed at, as a number");
      return;
    }
    setError(null);
    onSave(cleaned);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Closed at a price" description={`The price ${pair} was closed at by hand.`} className="max-w-sm">
      <form onSubmit={submit} className="space-y-3" noValidate>
        <Label htmlFor={id}>Close price</Label>
        <Input
          id={id}
          inputMode="decimal"
          autoComplete="off"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm text-rose-600 dark:text-rose-400">
            {error}
          </p>
        ) : null}
        <Button type="submit" className="w-full">
          Save outcome
        </Button>
      </form>
    </Dialog>
  );
}
