import { History, MessagesSquare, RefreshCw } from "lucide-react";
import { useLayoutEffect, useRef, type ReactNode } from "react";
import { Button } from "../../components/Button";
import { EmptyState } from "../../components/EmptyState";
import { Spinner } from "../../components/Spinner";
import type { ChatMessage } from "./types";
import { flattenPages, useChatMessages } from "./useChatMessages";

const LOAD_OLDER_THRESHOLD_PX = 48;

/**
 * A room's messages, oldest at the top and newest at the bottom, in their own scroll area.
 * Opens at the newest message; scrolling to the top (or the button) loads the previous page
 * and keeps the reading position.
 */
export function MessageList({
  roomId,
  mine,
  emptyTitle,
  label,
  renderMessage,
}: {
  roomId: number;
  mine: boolean;
  emptyTitle: string;
  label: string;
  renderMessage: (message: ChatMessage) => ReactNode;
}) {
  const query = useChatMessages(roomId, mine);
  const messages = flattenPages(query.data?.pages);
  const scroller = useRef<HTMLDivElement>(null);
  const keepFromBottom = useRef<number | null>(null);
  const lastNewestId = useRef<number | null>(null);
  const newestId = messages.at(-1)?.id ?? null;
  const oldestId = messages[0]?.id ?? null;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (keepFromBottom.current !== null) {
      // older messages were added above: stay on the same message
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (newestId !== lastNewestId.current) {
      el.scrollTop = el.scrollHeight;
    }
    lastNewestId.current = newestId;
  }, [newestId, oldestId]);

  const loadOlder = () => {
    const el = scroller.current;
    if (!query.hasNextPage || query.isFetchingNextPage) return;
    if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
    void query.fetchNextPage().then((result) => {
      if (result.isError) keepFromBottom.current = null;
    });
  };

  const onScroll = () => {
    const el = scroller.current;
    if (el && el.scrollTop < LOAD_OLDER_THRESHOLD_PX && el.scrollHeight > el.clientHeight) loadOlder();
  };

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div role="status" className="flex items-center justify-center gap-2 py-12 text-muted">
        <Spinner className="text-emerald-500" />
        Loading messages...
      </div>
    );
  } else if (query.isError && !messages.length) {
    body = (
      <div role="alert">
        <EmptyState
          icon={MessagesSquare}
          title="Failed to get chat messages"
          action={
            <Button variant="secondary" onClick={() => void query.refetch()}>
              <RefreshCw className="h-4 w-4" aria-hidden="true" />
              Try again
            </Button>
          }
        />
      </div>
    );
  } else if (!messages.length) {
    body = <EmptyState icon={MessagesSquare} title={emptyTitle} />;
  } else {
    body = (
      <>
        {query.hasNextPage ? (
          <div className="mb-4 flex justify-center">
            <Button variant="outline" size="sm" onClick={loadOlder} disabled={query.isFetchingNextPage}>
              {query.isFetchingNextPage ? <Spinner className="h-4 w-4" /> : <History className="h-4 w-4" aria-hidden="true" />}
              {query.isFetchingNextPage ? "Loading..." : "Load older messages"}
            </Button>
          </div>
        ) : null}
        <ol aria-label={label} className="space-y-3">
          {messages.map((message) => (
            <li key={message.id}>{renderMessage(message)}</li>
          ))}
        </ol>
      </>
    );
  }

  return (
    <div ref={scroller} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto overscroll-contain">
      <div className="mx-auto w-full max-w-3xl px-4 py-4">{body}</div>
    </div>
  );
}
