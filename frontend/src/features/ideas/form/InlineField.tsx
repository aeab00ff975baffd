import { useId, useState } from "react";
import { cn } from "../../../components/cn";

/**
 * A level or notes field of an educator's card that saves on blur when its value changed.
 * `onSave` resolves true when the server took the value; otherwise the field shows the server value again.
 */
export function InlineField({
  label,
  value,
  onSave,
  multiline = false,
  disabled,
  strike,
}: {
  label: string;
  value: string | null;
  onSave: (value: string) => Promise<boolean>;
  multiline?: boolean;
  disabled?: boolean;
  strike?: boolean;
}) {
  const id = useId();
  const server = value ?? "";
  const [text, setText] = useState(server);
  const [lastServer, setLastServer] = useState(server);
  const [saving, setSaving] = useState(false);
  if (server !== lastServer) {
    // The idea changed on the server: show its value (derived state, no effect needed).
    setLastServer(server);
    setText(server);
  }

  const blur = async () => {
    if (text.trim() === server.trim()) return;
    setSaving(true);
    const ok = await onSave(text.trim());
    setSaving(false);
    if (!ok) setText(server);
  };

  const common = {
    id,
    value: text,
    disabled: disabled || saving,
    onBlur: () => void blur(),
    className: cn(
      "w-full rounded-lg border border-line bg-field px-2.5 text-sm text-fg placeholder:text-muted/60 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 disabled:opacity-60",
      multiline ? "py-2" : "h-11 font-mono sm:h-9",
      strike && "line-through decoration-amber-500",
      saving && "animate-pulse",
    ),
  };
  return (
    <div className={cn(multiline && "col-span-full")}>
      <label htmlFor={id} className="mb-1 block text-[11px] font-medium uppercase tracking-wide text-muted">
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={3} placeholder="Add notes..." onChange={(e) => setText(e.target.value)} />
      ) : (
        <input {...common} placeholder="—" autoComplete="off" onChange={(e) => setText(e.target.value)} />
      )}
    </div>
  );
}
