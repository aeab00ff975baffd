import { useState } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { ConfirmDialog } from "../../components/overlays/ConfirmDialog";
import { composeMessage } from "../../lib/chatComposer";
import { resizeImage } from "../../lib/photos";
import { PageHeader } from "../../components/PageHeader";
import { Composer, type ComposedMessage } from "./Composer";
import { EducatorMessageItem } from "./EducatorMessageItem";
import { MessageList } from "./MessageList";
import { RoomTabs } from "./RoomTabs";
import type { ChatMessage, ChatRoom } from "./types";
import { useDeleteMessage } from "./useDeleteMessage";
import { usePostMessage } from "./usePostMessage";
import { useUploadChatImage } from "./useUploadChatImage";

function RoomComposer({ room }: { room: ChatRoom }) {
  const upload = useUploadChatImage();
  const post = usePostMessage();

  const onSend = async ({ text, file }: ComposedMessage) => {
    try {
      let imageId: number | null = null;
      if (file) {
        const media = await upload.mutateAsync(await resizeImage(file));
        imageId = media.id;
      }
      const body = composeMessage(text, imageId);
      if (!body) return;
      await post.mutateAsync({ roomId: room.id, ...body });
    } catch (error) {
      console.error("Failed to send chat message", error);
      toast.error(errorMessage(error, "Failed to send chat message"));
      throw error;
    }
  };

  return (
    <div className="shrink-0 border-t border-line bg-surface/95">
      <Composer onSend={onSend} />
    </div>
  );
}

/** Educators post to the rooms and see, edit and delete their own messages. */
export function EducatorChatPage() {
  const [toDelete, setToDelete] = useState<ChatMessage | null>(null);
  const remove = useDeleteMessage();

  const confirmDelete = () => {
    if (!toDelete) return;
    setToDelete(null);
    remove.mutate(
      { messageId: toDelete.id, roomId: toDelete.roomId },
      {
        onSuccess: () => toast.success("Message deleted successfully!"),
        onError: (error) => toast.error(`Delete failed: ${errorMessage(error, "Failed to delete chat message")}`),
      },
    );
  };

  return (
    <div className="flex h-dvh flex-col bg-surface">
      <PageHeader start={{ kind: "back", to: "/educator/dashboard", label: "Dashboard" }} title="Educator Chat" subtitle="Your messages" width="3xl" />
      <main className="flex min-h-0 flex-1 flex-col">
        <RoomTabs>
          {(room) => (
            <>
              <MessageList
                roomId={room.id}
                mine
                label={`Your messages in ${room.name}`}
                emptyTitle="No messages yet"
                renderMessage={(message) => <EducatorMessageItem message={message} onDelete={setToDelete} />}
              />
              <RoomComposer room={room} />
            </>
          )}
        </RoomTabs>
      </main>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title="Delete message"
        description="Are you sure you want to delete this message?"
        confirmLabel="Delete"
        onConfirm={confirmDelete}
        danger
      />
    </div>
  );
}
