import * as Tabs from "@radix-ui/react-tabs";
import { MessagesSquare, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { Spinner } from "../../components/Spinner";
import type { ChatRoom } from "./types";
import { useChatRooms } from "./useChatRooms";

/** Only these rooms are shown (spec §Customer chat). */
const ROOM_NAMES = new Set(["Leverage Ideas", "Exchange Ideas"]);

/**
 * A tab per chat room with each room's content below. The selected room is `?room=ID` in the address (a chat
 * notification opens its room that way); without it, the first room.
 */
export function RoomTabs({ children }: { children: (room: ChatRoom) => ReactNode }) {
  const rooms = useChatRooms();
  const [params, setParams] = useSearchParams();
  const visible = (rooms.data ?? []).filter((room) => ROOM_NAMES.has(room.name));
  const asked = params.get("room");
  const selected = visible.some((room) => String(room.id) === asked) ? asked : null;
  const value = selected ?? (visible[0] ? String(visible[0].id) : "");
  const setSelected = (room: string) => setParams({ room }, { replace: true });

  if (rooms.isPending) {
    return (
      <div role="status" className="flex flex-1 items-center justify-center gap-2 text-muted">
        <Spinner className="text-emerald-500" />
        Loading channels...
      </div>
    );
  }
  if (rooms.isError) {
    return (
      <div role="alert" className="mx-auto w-full max-w-3xl px-4 py-6">
        <EmptyState
          icon={MessagesSquare}
          title="Failed to get chat rooms"
          action={
            <Button variant="secondary" onClick={() => void rooms.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
              Try again
            </Button>
          }
        />
      </div>
    );
  }
  if (!visible.length || !value) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-6">
        <EmptyState icon={MessagesSquare} title="Select a channel to view educator insights" />
      </div>
    );
  }
  return (
    <Tabs.Root value={value} onValueChange={setSelected} className="flex min-h-0 flex-1 flex-col">
      <div className="mx-auto w-full max-w-3xl shrink-0 px-4 pt-4">
        <Tabs.List aria-label="Chat rooms" className="grid grid-cols-2 gap-1 rounded-2xl border border-line bg-card p-1">
          {visible.map((room) => (
            <Tabs.Trigger
              key={room.id}
              value={String(room.id)}
              className="min-h-11 rounded-xl px-3 py-2.5 text-sm font-semibold sm:min-h-0 text-muted transition-colors hover:text-fg data-[state=active]:bg-emerald-500 data-[state=active]:text-slate-950 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
            >
              {room.name}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </div>
      {visible.map((room) => (
        <Tabs.Content key={room.id} value={String(room.id)} className="flex min-h-0 flex-1 flex-col focus-visible:outline-none">
          {children(room)}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}
