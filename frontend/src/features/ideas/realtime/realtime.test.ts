import { QueryClient, QueryObserver, type InfiniteData } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { dispatch, type RealtimeEvent, type Viewer } from "../../../lib/realtime";
import { notificationSettingsKey } from "../../../lib/notificationSettings";
import { ideaKeys, unseenCountsKey } from "../api/queryKeys";
import { ideaEventHandlers, ideaMatches, upsertIdeaInList, upsertIdeaInPages } from "./realtime";
import type { Idea, IdeaPage } from "../api/types";

const CUSTOMER: Viewer = { id: 100, role: "customer" };
const EDUCATOR: Viewer = { id: 1, role: "educator" };
const apply = (qc: QueryClient, event: RealtimeEvent, viewer: Viewer) => dispatch(ideaEventHandlers, qc, event, viewer);

function idea(id: number, over: Partial<Idea> = {}): Idea & { isNew: boolean | null } {
  return {
    id,
    audioUrl: null,
    chartUrl: null,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, id)).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 1, 0, id)).toISOString(),
    edited: false,
    editedAfterPublish: false,
    educatorSlug: "edu-one",
    outcome: null,
    closePrice: null,
    closedAt: null,
    rMultiple: null,
    lesson: null,
    identityFixedAt: new Date(Date.UTC(2025, 0, 1, 0, id + 15)).toISOString(),
    resultFixedAt: null,
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
    imageFullUrls: [],
    invalidationLevel: "1.00",
    setupId: null,
    setupName: null,
    reason: null,
    isNew: null,
    verification: null,
    taken: null,
    market: "forex",
    marketType: "Forex",
    notes: null,
    orderType: "BUY",
    pair: "EURUSD",
    specialty: null,
    status: "active",
    completed: false,
    timeFrame: "H1",
    videoUrl: null,
    ...over,
  };
}

const page = (items: Idea[], nextCursor: string | null = null): IdeaPage => ({ items, nextCursor, lockedEducators: 0 });
const ids = (items: readonly { id: number }[]) => items.map((i) => i.id);

describe("ideaMatches", () => {
  it("follows the list filters", () => {
    expect(ideaMatches({ market: "forex", status: "active" }, idea(1))).toBe(true);
    expect(ideaMatches({ market: "crypto" }, idea(1))).toBe(false);
    expect(ideaMatches({ ideaType: "exchange" }, idea(1))).toBe(false);
    expect(ideaMatches({ ideaType: "leverage" }, idea(1))).toBe(true);
    expect(ideaMatches({ educatorId: 2 }, idea(1))).toBe(false);
    expect(ideaMatches({ status: "active" }, idea(1, { status: "invalidated" }))).toBe(true);
    expect(ideaMatches({ status: "active" }, idea(1, { status: "successful", completed: true }))).toBe(false);
    expect(ideaMatches({ status: "completed" }, idea(1, { status: "unsuccessful", completed: true }))).toBe(true);
    expect(ideaMatches({ status: "completed" }, idea(1))).toBe(false);
    const lesson = { whatHappened: "Spiked on CPI.", lesson: "Skip news.", updatedAt: "2025-01-01T00:00:00Z", fixedAt: "2025-01-01T00:15:00Z" };
    expect(ideaMatches({ status: "completed", lesson: true }, idea(1, { completed: true }))).toBe(false);
    expect(ideaMatches({ status: "completed", lesson: true }, idea(1, { completed: true, lesson }))).toBe(true);
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
    const next = upsertIdeaInPages(pages, { status: "active" }, idea(5, { status: "successful", completed: true }));
    expect(ids(next[0]!.items)).toEqual([3]);
  });

  it("adds a completed idea to the matching history", () => {
    const history = [page([idea(7, { status: "unsuccessful", completed: true }), idea(2, { status: "successful", completed: true })])];
    const next = upsertIdeaInPages(history, { market: "forex", ideaType: "leverage", status: "completed" }, idea(5, { status: "successful", completed: true }));
    expect(ids(next[0]!.items)).toEqual([7, 5, 2]);
  });
});

describe("upsertIdeaInList", () => {
  it("keeps the list within its limit", () => {
    const next = upsertIdeaInList(page([idea(5), idea(3)]), { limit: 2 }, idea(9));
    expect(ids(next.items)).toEqual([9, 5]);
  });
});

describe("ideaEventHandlers", () => {
  const active = { market: "forex" as const, status: "active" as const, limit: 100 };
  const history = { market: "forex" as const, ideaType: "leverage" as const, status: "completed" as const, limit: 12 };

  function setup() {
    const qc = new QueryClient();
    qc.setQueryData(ideaKeys.list(active), page([idea(3, { isNew: false })]));
    qc.setQueryData(ideaKeys.list({ market: "crypto", status: "active", limit: 100 }), page([]));
    qc.setQueryData<InfiniteData<IdeaPage, unknown>>(ideaKeys.pages(history), { pages: [page([])], pageParams: [undefined] });
    qc.setQueryData(unseenCountsKey, { forex: 0, crypto: 0, total: 0 });
    qc.setQueryData(notificationSettingsKey, { forex: true, crypto: true });
    return qc;
  }

  it("idea.verification: the idea's price check changes in every cached list and on its own page", () => {
    const qc = setup();
    qc.setQueryData(ideaKeys.detail(3), idea(3));
    const verification = {
      state: "triggered" as const, outcome: null, rMultiple: null, settlementPrice: null, triggeredAt: "2025-01-01T00:10:00Z",
      settledAt: null, maeR: 0, mfeR: 0.2, feed: "oanda" as const, symbol: "EUR_USD", reason: null, detail: null, receipts: [], agrees: null,
    };
    apply(qc, { type: "idea.verification", id: 3, educatorId: 1, verification }, CUSTOMER);
    const list = qc.getQueryData<IdeaPage>(ideaKeys.list(active))!;
    expect(list.items[0]!.verification).toEqual(verification);
    expect(list.items[0]!.isNew).toBe(false);
    expect(qc.getQueryData<Idea>(ideaKeys.detail(3))!.verification).toEqual(verification);
  });

  it("ideas.seen: the customer's badges take the counts from their other tab or device", () => {
    const qc = setup();
    qc.setQueryData(unseenCountsKey, { forex: 2, crypto: 1, total: 3 });
    apply(qc, { type: "ideas.seen", userId: 5, forex: 0, crypto: 1, total: 1 }, CUSTOMER);
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 1, total: 1 });
  });

  it("idea.created: into the matching active list, NEW for customers, counted without asking the server", () => {
    const qc = setup();
    apply(qc, { ...idea(9), type: "idea.created" }, CUSTOMER);
    const list = qc.getQueryData<IdeaPage>(ideaKeys.list(active))!;
    expect(ids(list.items)).toEqual([9, 3]);
    expect(list.items[0]!.isNew).toBe(true);
    expect(list.items[0]).not.toHaveProperty("type");
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list({ market: "crypto", status: "active", limit: 100 }))!.items).toEqual([]);
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 1, crypto: 0, total: 1 });
    expect(qc.getQueryState(unseenCountsKey)!.isInvalidated).toBe(false);
  });

  it("idea.created in a market whose notifications are off: not NEW, not counted", () => {
    const qc = setup();
    qc.setQueryData(notificationSettingsKey, { forex: false, crypto: true });
    apply(qc, { ...idea(9), type: "idea.created" }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items[0]).toMatchObject({ id: 9, isNew: false });
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 0, total: 0 });
  });

  it("idea.created by an educator the customer switched off: not NEW, not counted", () => {
    const qc = setup();
    const educatorId = idea(9).educatorId;
    qc.setQueryData(notificationSettingsKey, { forex: true, crypto: true, educators: { [String(educatorId)]: false } });
    apply(qc, { ...idea(9), type: "idea.created" }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items[0]).toMatchObject({ id: 9, isNew: false });
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 0, total: 0 });
  });

  it("idea.created before the settings are known: the counts are asked for once", () => {
    const qc = setup();
    qc.removeQueries({ queryKey: notificationSettingsKey });
    apply(qc, { ...idea(9), type: "idea.created" }, CUSTOMER);
    expect(qc.getQueryState(unseenCountsKey)!.isInvalidated).toBe(true);
  });

  it("idea.created for an educator has no NEW tag", () => {
    const qc = setup();
    apply(qc, { ...idea(9), type: "idea.created" }, EDUCATOR);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items[0]!.isNew).toBeNull();
  });

  it("idea.status successful: out of the carousel, into history; a NEW idea leaves the count", () => {
    const qc = setup();
    qc.setQueryData(ideaKeys.list(active), page([idea(3, { isNew: true })]));
    qc.setQueryData(unseenCountsKey, { forex: 1, crypto: 0, total: 1 });
    apply(qc, { ...idea(3, { status: "successful", completed: true }), type: "idea.status" }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items).toEqual([]);
    const pages = qc.getQueryData<InfiniteData<IdeaPage, unknown>>(ideaKeys.pages(history))!;
    expect(ids(pages.pages[0]!.items)).toEqual([3]);
    expect(qc.getQueryData(unseenCountsKey)).toEqual({ forex: 0, crypto: 0, total: 0 });
  });

  it("a list refetch under way when an idea is deleted does not bring it back", async () => {
    const qc = setup();
    const key = ideaKeys.list(active);
    let answerOld: (data: IdeaPage) => void = () => undefined;
    const answers = [
      new Promise<IdeaPage>((resolve) => (answerOld = resolve)), // answered before the delete
      Promise.resolve(page([])), // asked after it
    ];
    const fetches = [qc.fetchQuery({ queryKey: key, queryFn: () => answers.shift()!, staleTime: 0 }).catch(() => undefined)];
    qc.getQueryCache().find({ queryKey: key })!.setOptions({ queryKey: key, queryFn: () => answers.shift()! });
    apply(qc, { type: "idea.deleted", id: 3, market: "forex", ideaType: "Leverage", educatorId: 1, pair: "EUR/USD", deletedAt: null }, CUSTOMER);
    answerOld(page([idea(3, { isNew: false })]));
    await Promise.all(fetches);
    await vi.waitFor(() => expect(qc.getQueryState(key)!.fetchStatus).toBe("idle"));
    expect(qc.getQueryData<IdeaPage>(key)!.items).toEqual([]);
  });

  it("a list's first load under way when an idea is deleted does not bring it back", async () => {
    const qc = new QueryClient();
    const key = ideaKeys.list(active);
    let answerOld: (data: IdeaPage) => void = () => undefined;
    const answers = [
      new Promise<IdeaPage>((resolve) => (answerOld = resolve)), // answered before the delete
      Promise.resolve(page([])), // asked after it
    ];
    const shown = new QueryObserver(qc, { queryKey: key, queryFn: () => answers.shift()! }); // a mounted carousel
    const unsubscribe = shown.subscribe(() => undefined);
    expect(qc.getQueryState(key)!.fetchStatus).toBe("fetching");
    apply(qc, { type: "idea.deleted", id: 3, market: "forex", ideaType: "Leverage", educatorId: 1, pair: "EUR/USD", deletedAt: null }, CUSTOMER);
    answerOld(page([idea(3, { isNew: false })]));
    await vi.waitFor(() => expect(qc.getQueryState(key)).toMatchObject({ status: "success", fetchStatus: "idle" }));
    expect(qc.getQueryData<IdeaPage>(key)!.items).toEqual([]);
    unsubscribe();
  });

  it("a list fetch under way when an idea changes does not put back the old idea", async () => {
    const qc = setup();
    const key = ideaKeys.list(active);
    let answerOld: (data: IdeaPage) => void = () => undefined;
    const answers = [
      new Promise<IdeaPage>((resolve) => (answerOld = resolve)), // answered before the change
      Promise.resolve(page([idea(3, { pair: "GBPUSD" })])), // asked after it
    ];
    // A prefetch: nobody shows the list yet.
    const prefetch = qc.prefetchQuery({ queryKey: key, queryFn: () => answers.shift()!, staleTime: 0 });
    apply(qc, { ...idea(3, { pair: "GBPUSD" }), type: "idea.updated" }, CUSTOMER);
    answerOld(page([idea(3)]));
    await prefetch;
    await vi.waitFor(() => expect(qc.getQueryState(key)!.fetchStatus).toBe("idle"));
    expect(qc.getQueryData<IdeaPage>(key)!.items[0]!.pair).toBe("GBPUSD");
  });

  it("idea.deleted removes it everywhere", () => {
    const qc = setup();
    apply(qc, { type: "idea.deleted", id: 3, market: "forex", ideaType: "Leverage", educatorId: 1, pair: "EUR/USD", deletedAt: null }, CUSTOMER);
    expect(qc.getQueryData<IdeaPage>(ideaKeys.list(active))!.items).toEqual([]);
    expect(qc.getQueryState(unseenCountsKey)!.isInvalidated).toBe(false); // it was not NEW
  });

  it("billing.access: the member's access changed, so every idea list, idea page and count is asked again", () => {
    const qc = setup();
    qc.setQueryData(ideaKeys.detail(3), idea(3));
    apply(qc, { type: "billing.access", userId: CUSTOMER.id, action: "grant.ended", detail: "", actorId: null }, CUSTOMER);
    expect(qc.getQueryState(ideaKeys.list(active))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(ideaKeys.detail(3))!.isInvalidated).toBe(true);
    expect(qc.getQueryState(unseenCountsKey)!.isInvalidated).toBe(true);
  });
});
