import { Trash2, Upload } from "lucide-react";
import { Suspense, lazy, useEffect, useId, useMemo, useState } from "react";
import { Button } from "../../../components/Button";

/** MediaRecorder code loads only on the educator form, and only after the form itself. */
const VoiceRecorder = lazy(async () => ({ default: (await import("./VoiceRecorder")).VoiceRecorder }));

export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

/** The voice note on the form: the idea's current one, a new recording or file (not uploaded yet), or none. */
export type VoiceNote = { kind: "current"; url: string } | { kind: "new"; blob: Blob } | { kind: "none" };

/** Record in the browser (timer, replay before saving) or upload an audio file; remove to save without one. */
export function VoiceNoteField({ value, onChange, disabled }: { value: VoiceNote; onChange: (v: VoiceNote) => void; disabled?: boolean }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const blobUrl = useMemo(() => (value.kind === "new" ? URL.createObjectURL(value.blob) : null), [value]);
  useEffect(() => () => (blobUrl ? URL.revokeObjectURL(blobUrl) : undefined), [blobUrl]);
  const src = value.kind === "current" ? value.url : value.kind === "new" ? blobUrl : null;

  const take = (blob: Blob) => {
    if (blob.size > MAX_AUDIO_BYTES) {
      setError("Please upload audio files smaller than 10MB.");
      return;
    }
    setError(null);
    onChange({ kind: "new", blob });
  };

  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium text-fg">Voice explanation</legend>
      {src ? (
        <div className="flex flex-wrap items-center gap-2">
          <audio controls src={src} aria-label={value.kind === "new" ? "Replay your voice note" : "Current voice note"} className="min-w-0 flex-1" />
          <Button variant="ghost" size="sm" onClick={() => onChange({ kind: "none" })} disabled={disabled}>
            <Trash2 className="h-4 w-4" aria-hidden="true" />
            Remove voice note
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <Suspense fallback={null}>
            <VoiceRecorder onRecorded={take} onError={setError} />
          </Suspense>
          <label htmlFor={`${id}-file`} className="inline-flex h-11 cursor-pointer items-center gap-1.5 rounded-xl border border-line px-3 text-sm font-semibold text-fg hover:bg-card-hover focus-within:ring-2 focus-within:ring-emerald-400 sm:h-9">
            <Upload className="h-4 w-4" aria-hidden="true" />
            Upload audio file
            <input
              id={`${id}-file`}
              type="file"
              accept="audio/*"
              className="sr-only"
              disabled={disabled}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = "";
                if (file) take(file);
              }}
            />
          </label>
        </div>
      )}
      <p className="text-xs text-muted">Up to 5 minutes. Saved with the idea; customers play it on the card.</p>
      {error ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
