import { QueryClient, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { chatKeys, ideaKeys, unseenCountsKey } from "../../lib/queryKeys";
import {
  applyRealtimeEvent,
  ideaMatches,
  mergeMessage,
  removeMessageFromPages,
  upsertIdeaInList,
  upsertIdeaInPages,
  upsertMessageInPages,
  type ChatMessage,
  type Idea,
  type IdeaPage,
  type MessagePage,
  type Viewer,
} from "./cache";

const CUSTOMER: Viewer = { id: 100, role: "customer" };
const EDUCATOR: Viewer = { id: 1, role: "educator" };

function idea(id: number, over: Partial<Idea> = {}): Idea {
  return {
    id,
    audioUrl: null,
    chartUrl: null,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, id)).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 1, 0, id)).toISOString(),
    edited: false,
    educatorId: 1,
    educatorImage: null,
    educatorName: "Edu One",
    entry1: "1.10",
    entry2: null,
    exit1: "1.20",
    exit2: null,
    exit3: null,
    ideaType: "Leverage",
    imageIds: [],
    imageUrls: [],
    invalidationLevel: "1.00",
    isNew: null,
    market: "forex",
    marketType: "Forex",
    notes: null,
    orderType: "BUY",
    pair: "EURUSD",
    specialty: null,
    status: "active",
    timeFrame: "H1",
    videoUrl: null,
    ...over,
  };
}

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

const page = (items: Idea[], nextCursor: string | null = null): IdeaPage => ({ items, nextCursor });
const ids = (items: readonly { id: number }[]) => items.map((i) => i.id);

describe("ideaMatches", () => {
  it("follows the list filters", () => {
    expect(ideaMatches({ market: "forex", status: "active" }, idea(1))).toBe(true);
    expect(ideaMatches({ market: "crypto" }, idea(1))).toBe(false);
    expect(ideaMatches({ ideaType: "exchange" }, idea(1))).toBe(false);
    expect(ideaMatches({ ideaType: "leverage" }, idea(1))).toBe(true);
    expect(ideaMatches({ educatorId: 2 }, idea(1))).toBe(false);
    expect(ideaMatches({ status: "active" }, idea(1, { status: "invalidated" }))).toBe(true);
    expect(ideaMatches({ status: "active" }, idea(1, { status: "successful" }))).toBe(false);
    expect(ideaMatches({ status: "completed" }, idea(1, { status: "unsuccessful" }))).toBe(true);
    expect(ideaMatches({ status: "completed" }, idea(1))).toBe(false);
  });
});

describe("upsertIdeaInPages", () => {
  it("inserts a new matching idea newest first", () => {
    const pages = upsertIdeaInPages([page([idea(5), idea(3)])], { market: "forex" }, idea(9));
    expect(ids(pages[0]!.items)).toEqual([9, 5, 3]);
  });

  it("inserts in created order, not only at the top", () => {
    const pages = upsertIdeaInPages([page([idea(5), idea(3)], "c1"), page([idea(2), idea(1)])], {}, idea(4));
    expect(ids(pages[0]!.items)).toEqual([5, 4, 3]);
  });

  it("leaves an idea older than every loaded one to the next page", () => {
    const pages = [page([idea(5), idea(3)], "cursor")];
    expect(ids(upsertIdeaInPages(pages, {}, idea(1))[0]!.items)).toEqual([5, 3]);
    expect(ids(upsertIdeaInPages([page([idea(5)])], {}, idea(1))[0]!.items)).toEqual([5, 1]);
  });

  it("ignores ideas that do not match", () => {
    const pages = [page([idea(5)])];
    expect(ids(upsertIdeaInPages(pages, { market: "crypto" }, idea(9))[0]!.items)).toEqual([5]);
  });

  it("replaces in place and keeps the viewer's NEW tag", () => {
    const pages = [page([idea(5, { isNew: true }), idea(3)])];
    const next = upsertIdeaInPages(pages, {}, idea(5, { exit1: "9.99", isNew: null }));
    expect(next[0]!.items[0]).toMatchObject({ id: 5, exit1: "9.99", isNew: true });
    expect(ids(next[0]!.items)).toEqual([5, 3]);
  });

  it("removes an idea that no longer matches (completed leaves the active list)", () => {
    const pages = [page([idea(5), idea(3)])];
    const next = upsertIdeaInPages(pages, { status: "active" }, idea(5, { status: "successful" }));
    expect(ids(next[0]!.items)).toEqual([3]);
  });

  it("adds a completed idea to the matching history", () => {
    const history = [page([idea(7, { status: "unsuccessful" }), idea(2, { status: "successful" })])];
    const next = upsertIdeaInPages(history, { market: "forex", ideaType: "leverage", status: "completed" }, idea(5, { status: "successful" }));
    expect(ids(next[0]!.items)).toEqual([7, 5, 2]);
  });
});

describe("upsertIdeaInList", () => {
  it("keeps the list within its limit", () => {
    const next = upsertIdeaInList(page([idea(5), idea(3)]), { limit: 2 }, idea(9));
    expect(ids(next.items)).toEqual([9, 5]);
  });
});

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

describe("applyRealtimeEvent", () => {
  const active = { market: "forex" as const, status: "active" as const, limit: 100 };
  const history = { market: "forex" as const, ideaType: "leverage" as const, status: "completed" as const, limit: 12 };

  function setup() {
    const qc = new QueryClient();
    qc.setQueryData(ideaKeys.list(active), page([idea(3, { isNew: false })]));
    qc.setQueryData(ideaKeys.list({ market: "crypto", status: "active", limit: 100 }), page([]));
    qc.setQueryData<InfiniteData<IdeaPage, unknown>>(ideaKeys.pages(history), { pages: [page([])], pageParams: [undefined] });
    qc.setQueryData(unseenCountsKey, { forex: 0, crypto: 0, total: 0 });
    return qc;
  }

  it("ideas.seen: the customer's badges take the counts from their other tab or device", () => {
    const qc = setup();
    qc.setQueryData(unseenCountsKey, { forex: 2, crypto: 1, total: 3 });
    applyRealtimeEvent(qc, { type: "ideas.seen", data: { userId: 5, forex: 0, crypto: 1, total: 1 } }, CUSTOMER);
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 1, total: 1 });
    applyRealtimeEvent(qc, { type: "ideas.seen", data: { forex: "x" } }, CUSTOMER);
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 1, total: 1 });
  });

  it("idea.created: into the matching active list, NEW for customers, unseen counts invalidated", () => {
    const qc = setup();
    applyRealtimeEvent(qc, { type: "idea.created", data: idea(9) }, CUSTOMER);
    const list = qc.getQueryData<IdeaPage>(ideaKeys.list(active))!;
    expect(ids(list.items)).toEqual([9, 3]);
    expect(list.items[0]!.isNew).toBe(true);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list({ market: "crypto", status: "active", limit: 100 }))!.items).toEqual([]);
    expect(qc.getQueryState(unseenCountsKey)!.isInvalidated).toBe(true);
  });

  it("idea.created for an educator has no NEW tag", () => {
    const qc = setup();
    applyRealtimeEvent(qc, { type: "idea.created", data: idea(9) }, EDUCATOR);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items[0]!.isNew).toBeNull();
  });

  it("idea.status successful: out of the carousel, into history", () => {
    const qc = setup();
    applyRealtimeEvent(qc, { type: "idea.status", data: idea(3, { status: "successful" }) }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items).toEqual([]);
    const pages = qc.getQueryData<InfiniteData<IdeaPage, unknown>>(ideaKeys.pages(history))!;
    expect(ids(pages.pages[0]!.items)).toEqual([3]);
  });

  it("idea.deleted removes it everywhere", () => {
    const qc = setup();
    applyRealtimeEvent(qc, { type: "idea.deleted", data: { id: 3 } }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items).toEqual([]);
  });

  it("ignores malformed data", () => {
    const qc = setup();
    applyRealtimeEvent(qc, { type: "idea.created", data: { nope: true } }, CUSTOMER);
    applyRealtimeEvent(qc, { type: "idea.deleted", data: null }, CUSTOMER);
    expect(ids(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items)).toEqual([3]);
  });

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
    applyRealtimeEvent(qc, { type: "chat.message.created", data: message(11, { userId: 2 }) }, EDUCATOR);
    applyRealtimeEvent(qc, { type: "chat.message.created", data: message(12, { userId: 1 }) }, EDUCATOR);
    expect(ids(items(1, false))).toEqual([10, 11, 12]);
    expect(ids(items(1, true))).toEqual([10, 12]);
    expect(items(2, false)).toEqual([]);
  });

  it("chat.reaction.updated updates counts and keeps the viewer's flags", () => {
    const { qc, items } = chat();
    applyRealtimeEvent(qc, { type: "chat.reaction.updated", data: message(10, { hearts: 2, likes: 1, hearted: false, liked: true }) }, CUSTOMER);
    expect(items(1, false)[0]).toMatchObject({ hearts: 2, likes: 1, hearted: true, liked: false });
  });

  it("chat.message.updated edits in place; chat.message.deleted removes", () => {
    const { qc, items } = chat();
    applyRealtimeEvent(qc, { type: "chat.message.updated", data: message(10, { message: "new text", isEdited: true }) }, CUSTOMER);
    expect(items(1, false)[0]).toMatchObject({ message: "new text", isEdited: true, hearted: true });
    applyRealtimeEvent(qc, { type: "chat.message.deleted", data: { id: 10, roomId: 1 } }, CUSTOMER);
    expect(items(1, false)).toEqual([]);
    expect(items(1, true)).toEqual([]);
  });
});
