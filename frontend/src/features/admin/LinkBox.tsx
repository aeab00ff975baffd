import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../components/Button";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";

/** A one-use link to hand to a member: selectable text plus a copy button, and when it expires. */
export function LinkBox({ label, url, expiresAt }: { label: string; url: string; expiresAt: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      window.setTimeout(() => setCopied(false), 2000);
    } catch {
      document.getElementById(id)?.focus(); // clipboard refused: the text is selected for a manual copy
    }
  };
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-sm" />
        <Button variant="secondary" onClick={() => void copy()} aria-label={`Copy ${label.toLowerCase()}`}>
          {copied ? <Check className="h-4 w-4" aria-hidden="true" /> : <Copy className="h-4 w-4" aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <p className="text-xs text-muted">Valid until {new Date(expiresAt).toLocaleString()}. It works once.</p>
    </div>
  );
}
