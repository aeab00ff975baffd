import { onlineManager } from "@tanstack/react-query";
import { Heart, ThumbsUp } from "lucide-react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { cn } from "../../components/cn";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import type { ChatMessage, ReactionKind } from "./types";
import { addReactionKey, useAddReaction, type ReactionInput } from "./useAddReaction";
import { removeReactionKey, useRemoveReaction } from "./useRemoveReaction";

const reactionButton =
  "inline-flex h-11 min-w-14 sm:h-9 items-center justify-center gap-1.5 rounded-full border px-3 text-sm font-semibold transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 disabled:opacity-60";

const HEART_ACTIVE = "border-rose-500/40 bg-rose-500/15 text-rose-600 dark:text-rose-300";
const LIKE_ACTIVE = "border-sky-500/40 bg-sky-500/15 text-sky-700 dark:text-sky-300";

/** Heart and like toggles with counts; aria-pressed shows the viewer's own reaction. */
export function ReactionButtons({ message }: { message: ChatMessage }) {
  const add = useAddReaction();
  const remove = useRemoveReaction();
  const forThis = (input: ReactionInput) => input.message.id === message.id;
  const added = useKeptWrites<ReactionInput>(addReactionKey, forThis);
  const removed = useKeptWrites<ReactionInput>(removeReactionKey, forThis);
  const kept = latestWrite([...added, ...removed]);
  const waiting = (writes: typeof added, kind: ReactionKind) => writes.some((w) => w.state === "waiting" && w.variables.kind === kind);
  // A reaction kept for later shows as made (and the buttons wait with it, so the order stays simple).
  const shown = (kind: ReactionKind, mine: boolean, count: number) =>
    waiting(added, kind) && !mine ? { mine: true, count: count + 1 } : waiting(removed, kind) && mine ? { mine: false, count: Math.max(0, count - 1) } : { mine, count };
  const busy = add.isPending || remove.isPending || kept?.state === "waiting" || kept?.state === "sending";

  const toggle = (kind: ReactionKind, on: boolean) => {
    const mutation = on ? remove : add;
    const keptForLater = !onlineManager.isOnline();
    mutation.mutate(
      { message, kind },
      // A reaction that waited shows the server's answer beside the buttons instead.
      { onError: (error) => (keptForLater ? undefined : toast.error(errorMessage(error, "Failed to react"))) },
    );
  };

  const reactions = [
    { kind: "heart", label: "Heart", Icon: Heart, ...shown("heart", message.hearted, message.hearts), active: HEART_ACTIVE },
    { kind: "like", label: "Like", Icon: ThumbsUp, ...shown("like", message.liked, message.likes), active: LIKE_ACTIVE },
  ] as const;

  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      {reactions.map(({ kind, label, Icon, mine, count, active }) => (
        <button
          key={kind}
          type="button"
          // The name includes the visible count (speech input users say what they see).
          aria-label={`${label} ${count}`}
          aria-pressed={mine}
          disabled={busy}
          onClick={() => toggle(kind, mine)}
          className={cn(reactionButton, mine ? active : "border-line text-muted hover:bg-card-hover hover:text-fg")}
        >
          <Icon className={cn("h-4 w-4", mine && "fill-current")} aria-hidden="true" />
          <span>{count}</span>
        </button>
      ))}
      {kept ? <WriteStatus state={kept.state} message={kept.message} /> : null}
    </div>
  );
}
