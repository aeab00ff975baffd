import { Card } from "../../components/Card";
import { PageHeader } from "../../components/PageHeader";
import { MessageImage } from "./MessageImage";
import { MessageList } from "./MessageList";
import { authorName, MessageMeta } from "./MessageMeta";
import { ReactionButtons } from "./ReactionButtons";
import { RoomTabs } from "./RoomTabs";
import type { ChatMessage } from "./types";
import { useNotificationPermissionPrompt } from "./useNotificationPermission";

function CustomerMessageCard({ message }: { message: ChatMessage }) {
  return (
    <Card className="p-4">
      <MessageMeta message={message} />
      <p className="mt-3 whitespace-pre-wrap break-words text-[15px] leading-relaxed text-fg">{message.message}</p>
      {message.imageUrl ? <MessageImage src={message.imageUrl} author={authorName(message)} /> : null}
      <ReactionButtons message={message} />
    </Card>
  );
}

/** Customers read the educators' channels and react; there is no input of any kind. */
export function CustomerChatPage() {
  useNotificationPermissionPrompt();
  return (
    <div className="flex h-dvh flex-col bg-surface">
      <PageHeader start={{ kind: "back", to: "/customer/dashboard", label: "Dashboard" }} title="Messages" subtitle="Educator Updates" width="3xl" />
      <main className="flex min-h-0 flex-1 flex-col">
        <RoomTabs>
          {(room) => (
            <MessageList
              roomId={room.id}
              mine={false}
              label={`${room.name} messages`}
              emptyTitle="No messages yet"
              renderMessage={(message) => <CustomerMessageCard message={message} />}
            />
          )}
        </RoomTabs>
      </main>
      <footer className="shrink-0 border-t border-line bg-card/50 px-4 py-3 text-center text-xs text-muted">
        Read-only channel - Educators share trading insights and analysis here.
      </footer>
    </div>
  );
}
