import { Label } from "../../components/Label";
import { Textarea } from "../../components/Textarea";
import { MAX_BIO } from "./types";

/** Bio: 4 rows, at most 1000 characters, with a live count tied to the field. */
export function BioField({ id, value, placeholder, onChange }: { id: string; value: string; placeholder: string; onChange: (bio: string) => void }) {
  return (
    <div>
      <Label htmlFor={id}>Bio</Label>
      <Textarea
        id={id}
        rows={4}
        maxLength={MAX_BIO}
        aria-describedby={`${id}-count`}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-count`} className="mt-1 text-right text-xs text-muted">
        {value.length}/{MAX_BIO}
      </p>
    </div>
  );
}
