import { Avatar } from "../../components/Avatar";
import { useIdeaExtras } from "../../components/IdeaExtras";
import { chatTime } from "../../lib/chatTime";
import type { ChatMessage } from "./types";

/** The author's display name, or 'Educator' when it is missing. */
export function authorName(message: ChatMessage): string {
  return message.userName.trim() || "Educator";
}

/** Avatar, name, optional specialty badge, time (or Now) and the (edited) marker. */
export function MessageMeta({ message }: { message: ChatMessage }) {
  const name = authorName(message);
  const { educator } = useIdeaExtras();
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={name} src={message.userImage} size="sm" />
      <div className="flex min-w-0 flex-wrap items-baseline gap-x-2 gap-y-0.5">
        {educator && message.userRole === "educator" ? (
          educator(message.userId, name)
        ) : (
          <span className="truncate font-semibold text-fg">{name}</span>
        )}
        {message.specialty ? (
          <span className="rounded-full bg-emerald-500/15 px-2 py-0.5 text-[11px] font-semibold text-emerald-700 dark:text-emerald-300">
            {message.specialty}
          </span>
        ) : null}
        <time dateTime={message.createdAt} title={new Date(message.createdAt).toLocaleString()} className="text-xs text-muted">
          {chatTime(message.createdAt)}
        </time>
        {message.isEdited ? <span className="text-xs italic text-muted">(edited)</span> : null}
      </div>
    </div>
  );
}
