import { ImagePlus, SendHorizontal, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from "react";
import { toast } from "../../lib/notify";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { canSend, isSendKey } from "../../lib/chatComposer";
import { photoProblem } from "../../lib/photos";

export interface ComposedMessage {
  text: string;
  file: File | null;
}

interface Attachment {
  file: File;
  url: string;
}

/**
 * The educator's message input: a labelled textarea, image attach (images only, under 10 MB)
 * and a send button. Enter sends, Shift+Enter adds a line. `onSend` resolves when the message
 * was sent (the input is then cleared) and rejects when it failed (the input is kept).
 */
export function Composer({ onSend, disabled = false }: { onSend: (message: ComposedMessage) => Promise<void>; disabled?: boolean }) {
  const id = useId();
  const [text, setText] = useState("");
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [sending, setSending] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const previewUrl = useRef<string | null>(null);

  useEffect(() => () => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
  }, []);

  const setImage = (next: Attachment | null) => {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = next?.url ?? null;
    setAttachment(next);
  };

  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const problem = photoProblem(0, [file]);
    if (problem) {
      toast.error(problem);
      return;
    }
    setImage({ file, url: URL.createObjectURL(file) });
    textarea.current?.focus();
  };

  const ready = canSend(text, attachment !== null) && !sending && !disabled;

  const send = async () => {
    if (!ready) return;
    setSending(true);
    try {
      await onSend({ text, file: attachment?.file ?? null });
      setText("");
      setImage(null);
    } catch {
      // the page reported the failure; keep what was typed
    } finally {
      setSending(false);
      textarea.current?.focus();
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void send();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSendKey(event)) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form onSubmit={onSubmit} className="mx-auto w-full max-w-3xl px-4 py-3">
      {attachment ? (
        <div className="mb-2 flex items-center gap-3 rounded-xl border border-line bg-card p-2">
          <img src={attachment.url} alt="Attached image preview" className="h-14 w-14 rounded-lg object-cover" />
          <span className="min-w-0 flex-1 truncate text-sm text-muted">{attachment.file.name}</span>
          <Button variant="ghost" size="icon" aria-label="Remove image" onClick={() => setImage(null)} disabled={sending}>
            <X className="h-4 w-4" aria-hidden="true" />
          </Button>
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <input ref={fileInput} id={`${id}-file`} type="file" accept="image/*" className="hidden" tabIndex={-1} onChange={onPick} />
        <Button
          variant="outline"
          size="icon"
          aria-label="Attach image"
          title="Attach image"
          className="h-12 w-12 shrink-0"
          disabled={sending || disabled}
          onClick={() => fileInput.current?.click()}
        >
          <ImagePlus className="h-5 w-5" aria-hidden="true" />
        </Button>
        <label htmlFor={`${id}-text`} className="sr-only">
          Message
        </label>
        <textarea
          ref={textarea}
          id={`${id}-text`}
          rows={1}
          value={text}
          placeholder="Type a message..."
          title="Enter sends, Shift+Enter adds a line"
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          maxLength={2000}
          className="field-sizing-content max-h-40 min-h-12 flex-1 resize-none rounded-xl border border-line bg-field px-4 py-3 text-base text-fg placeholder:text-muted/70 focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30 disabled:opacity-60"
        />
        <Button type="submit" size="icon" aria-label="Send message" title="Send message" className="h-12 w-12 shrink-0" disabled={!ready}>
          {sending ? <Spinner className="h-5 w-5" /> : <SendHorizontal className="h-5 w-5" aria-hidden="true" />}
        </Button>
      </div>
    </form>
  );
}
