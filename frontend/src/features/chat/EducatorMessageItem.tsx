import { Heart, Pencil, ThumbsUp, Trash2 } from "lucide-react";
import { useId, useState, type KeyboardEvent } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { isSendKey } from "../../lib/chatComposer";
import { MessageImage } from "./MessageImage";
import { authorName, MessageMeta } from "./MessageMeta";
import type { ChatMessage } from "./types";
import { useEditMessage } from "./useEditMessage";

/** One of the educator's own messages with Edit (inline) and Delete. */
export function EducatorMessageItem({ message, onDelete }: { message: ChatMessage; onDelete: (message: ChatMessage) => void }) {
  const id = useId();
  const edit = useEditMessage();
  const [draft, setDraft] = useState<string | null>(null);
  const editing = draft !== null;

  const save = () => {
    if (draft === null || !draft.trim() || edit.isPending) return;
    if (draft.trim() === message.message) {
      setDraft(null);
      return;
    }
    edit.mutate(
      { messageId: message.id, roomId: message.roomId, message: draft.trim() },
      {
        onSuccess: () => setDraft(null),
        onError: (error) => {
          console.error("Failed to update chat message", error);
          toast.error(errorMessage(error, "Failed to update chat message"));
        },
      },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSendKey(event)) {
      event.preventDefault();
      save();
    } else if (event.key === "Escape") {
      setDraft(null);
    }
  };

  return (
    <Card className="p-4">
      <MessageMeta message={message} />
      {editing ? (
        <div className="mt-3">
          <label htmlFor={`${id}-edit`} className="sr-only">
            Edit message
          </label>
          <textarea
            id={`${id}-edit`}
            autoFocus
            rows={3}
            maxLength={2000}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            className="w-full resize-y rounded-xl border border-line bg-field px-4 py-3 text-base text-fg focus:border-emerald-500 focus:outline-none focus:ring-2 focus:ring-emerald-500/30"
          />
          <div className="mt-2 flex justify-end gap-2">
            <Button variant="outline" size="sm" onClick={() => setDraft(null)} disabled={edit.isPending}>
              Cancel
            </Button>
            <Button size="sm" onClick={save} disabled={!draft.trim() || edit.isPending}>
              {edit.isPending ? "Saving..." : "Save"}
            </Button>
          </div>
        </div>
      ) : (
        <p className="mt-3 whitespace-pre-wrap break-words text-[15px] leading-relaxed text-fg">{message.message}</p>
      )}
      {message.imageUrl ? <MessageImage src={message.imageUrl} author={authorName(message)} /> : null}
      <div className="mt-3 flex items-center justify-between gap-2">
        <p className="flex items-center gap-4 text-xs text-muted">
          <span className="inline-flex items-center gap-1" title="Hearts">
            <Heart className="h-3.5 w-3.5" aria-hidden="true" />
            <span className="sr-only">Hearts:</span> {message.hearts}
          </span>
          <span className="inline-flex items-center gap-1" title="Likes">
            <ThumbsUp className="h-3.5 w-3.5" aria-hidden="true" />
            <span className="sr-only">Likes:</span> {message.likes}
          </span>
        </p>
        {!editing ? (
          <div className="flex shrink-0 items-center gap-1">
            <Button variant="ghost" size="sm" onClick={() => setDraft(message.message)}>
              <Pencil className="h-4 w-4" aria-hidden="true" />
              Edit
            </Button>
            <Button variant="ghost" size="sm" className="text-rose-600 hover:text-rose-500 dark:text-rose-400" onClick={() => onDelete(message)}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Delete
            </Button>
          </div>
        ) : null}
      </div>
    </Card>
  );
}
