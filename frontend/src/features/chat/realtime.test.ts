import { InfiniteQueryObserver, QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { dispatch, type RealtimeEvent, type Viewer } from "../../lib/realtime";
import { chatKeys } from "./queryKeys";
import { chatEventHandlers, mergeMessage, removeMessageFromPages, upsertMessageInPages } from "./realtime";
import type { ChatMessage, MessagePage } from "./types";

const CUSTOMER: Viewer = { id: 100, role: "customer" };
const EDUCATOR: Viewer = { id: 1, role: "educator" };
const apply = (qc: QueryClient, event: RealtimeEvent, viewer: Viewer) => dispatch(chatEventHandlers, qc, event, viewer);
const ids = (items: readonly { id: number }[]) => items.map((i) => i.id);

function message(id: number, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    roomId: 1,
    userId: 1,
    userName: "Edu One",
    userRole: "educator",
    userImage: null,
    specialty: null,
    message: `m${id}`,
    imageUrl: null,
    isEdited: false,
    createdAt: "2025-01-01T00:00:00Z",
    updatedAt: "2025-01-01T00:00:00Z",
    hearts: 0,
    likes: 0,
    hearted: false,
    liked: false,
    ...over,
  };
}

describe("chat messages", () => {
  const pages = (): MessagePage[] => [
    { items: [message(10), message(11)], nextCursor: 10 },
    { items: [message(5), message(6)], nextCursor: null },
  ];

  it("appends a new message to the newest page", () => {
    const next = upsertMessageInPages(pages(), message(12));
    expect(ids(next[0]!.items)).toEqual([10, 11, 12]);
    expect(next[1]).toEqual(pages()[1]);
  });

  it("does not duplicate a message already cached", () => {
    const next = upsertMessageInPages(pages(), message(11, { message: "edited" }));
    expect(ids(next[0]!.items)).toEqual([10, 11]);
    expect(next[0]!.items[1]!.message).toBe("edited");
  });

  it("a new message from someone else starts without this viewer's reactions", () => {
    const next = upsertMessageInPages(pages(), message(12, { hearted: true, liked: true, hearts: 1, likes: 1 }));
    expect(next[0]!.items[2]).toMatchObject({ hearted: false, liked: false, hearts: 1, likes: 1 });
  });

  it("keeps the viewer's own flags when another user's reaction arrives", () => {
    const cached = message(11, { hearts: 1, hearted: true, likes: 0, liked: false });
    const merged = mergeMessage(cached, { id: 11, hearts: 2, likes: 1, hearted: false, liked: true });
    expect(merged).toMatchObject({ hearts: 2, likes: 1, hearted: true, liked: false });
  });

  it("removes a deleted message", () => {
    expect(ids(removeMessageFromPages(pages(), 11)[0]!.items)).toEqual([10]);
  });
});

describe("chatEventHandlers", () => {
  function chat() {
    const qc = new QueryClient();
    const data = (items: ChatMessage[]): InfiniteData<MessagePage, unknown> => ({ pages: [{ items, nextCursor: null }], pageParams: [null] });
    qc.setQueryData(chatKeys.messages(1, false), data([message(10, { hearted: true, hearts: 1 })]));
    qc.setQueryData(chatKeys.messages(1, true), data([message(10, { hearted: true, hearts: 1 })]));
    qc.setQueryData(chatKeys.messages(2, false), data([]));
    const items = (roomId: number, mine: boolean) =>
      qc.getQueryData<InfiniteData<MessagePage, unknown>>(chatKeys.messages(roomId, mine))!.pages.flatMap((p) => p.items);
    return { qc, items };
  }

  it("chat.message.created goes to its room; `mine` lists keep only the viewer's own", () => {
    const { qc, items } = chat();
    apply(qc, { ...message(11, { userId: 2 }), type: "chat.message.created" }, EDUCATOR);
    apply(qc, { ...message(12, { userId: 1 }), type: "chat.message.created" }, EDUCATOR);
    expect(ids(items(1, false))).toEqual([10, 11, 12]);
    expect(ids(items(1, true))).toEqual([10, 12]);
    expect(items(2, false)).toEqual([]);
  });

  it("chat.reaction.updated updates counts and keeps the viewer's flags", () => {
    const { qc, items } = chat();
    apply(qc, { ...message(10, { hearts: 2, likes: 1, hearted: false, liked: true }), type: "chat.reaction.updated" }, CUSTOMER);
    expect(items(1, false)[0]).toMatchObject({ hearts: 2, likes: 1, hearted: true, liked: false });
  });

  it("chat.message.updated edits in place; chat.message.deleted removes", () => {
    const { qc, items } = chat();
    apply(qc, { ...message(10, { message: "new text", isEdited: true }), type: "chat.message.updated" }, CUSTOMER);
    expect(items(1, false)[0]).toMatchObject({ message: "new text", isEdited: true, hearted: true });
    apply(qc, { type: "chat.message.deleted", id: 10, roomId: 1, userId: 1 }, CUSTOMER);
    expect(items(1, false)).toEqual([]);
    expect(items(1, true)).toEqual([]);
  });

  it("a refetch under way when a message is deleted does not bring it back", async () => {
    const qc = new QueryClient();
    const key = chatKeys.messages(1, false);
    const page = (items: ChatMessage[]): InfiniteData<MessagePage, unknown> => ({ pages: [{ items, nextCursor: null }], pageParams: [null] });
    qc.setQueryData(key, page([message(10)]));
    let answerOld: (data: InfiniteData<MessagePage, unknown>) => void = () => undefined;
    const answers = [
      new Promise<InfiniteData<MessagePage, unknown>>((resolve) => (answerOld = resolve)), // answered before the delete
      Promise.resolve(page([])), // asked after it
    ];
    const fetches: Promise<unknown>[] = [];
    fetches.push(qc.fetchQuery({ queryKey: key, queryFn: () => answers.shift()!, staleTime: 0 }).catch(() => undefined));
    qc.getQueryCache().find({ queryKey: key })!.setOptions({ queryKey: key, queryFn: () => answers.shift()! });
    apply(qc, { type: "chat.message.deleted", id: 10, roomId: 1, userId: 1 }, CUSTOMER);
    answerOld(page([message(10)]));
    await Promise.all(fetches);
    await vi.waitFor(() => expect(qc.getQueryState(key)!.fetchStatus).toBe("idle"));
    expect(qc.getQueryData<InfiniteData<MessagePage, unknown>>(key)!.pages[0]!.items).toEqual([]);
  });

  it("a room's first load under way when a message is deleted does not bring it back", async () => {
    const qc = new QueryClient();
    const key = chatKeys.messages(1, false);
    let answerOld: (data: MessagePage) => void = () => undefined;
    const answers = [
      new Promise<MessagePage>((resolve) => (answerOld = resolve)), // answered before the delete
      Promise.resolve<MessagePage>({ items: [], nextCursor: null }), // asked after it
    ];
    const shown = new InfiniteQueryObserver(qc, {
      queryKey: key,
      queryFn: () => answers.shift()!,
      initialPageParam: null as number | null,
      getNextPageParam: (last: MessagePage) => last.nextCursor,
    }); // the open room
    const unsubscribe = shown.subscribe(() => undefined);
    expect(qc.getQueryState(key)!.fetchStatus).toBe("fetching");
    apply(qc, { type: "chat.message.deleted", id: 10, roomId: 1, userId: 1 }, CUSTOMER);
    answerOld({ items: [message(10)], nextCursor: null });
    await vi.waitFor(() => expect(qc.getQueryState(key)).toMatchObject({ status: "success", fetchStatus: "idle" }));
    expect(qc.getQueryData<InfiniteData<MessagePage, unknown>>(key)!.pages[0]!.items).toEqual([]);
    unsubscribe();
  });
});
