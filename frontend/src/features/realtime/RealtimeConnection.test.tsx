import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { forgetPositions, notePosition } from "../../api/streamPosition";
import type { EventHandlers, RealtimeEvent } from "../../lib/realtime";
import { testQueryClient } from "../../test/render";
import { RealtimeConnection } from "./RealtimeConnection";
import { retryDelay } from "./useRealtime";

class FakeEventSource {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  listeners = new Map<string, (e: MessageEvent) => void>();
  constructor(public url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, fn);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  open() {
    this.readyState = FakeEventSource.OPEN;
    this.onopen?.();
  }
  fail(readyState: number) {
    this.readyState = readyState;
    this.onerror?.();
  }
  emit(type: string, data: unknown, id: string) {
    this.listeners.get(type)?.(new MessageEvent(type, { data: JSON.stringify(data), lastEventId: id }));
  }
}

const idea = {
  id: 9, audioUrl: null, chartUrl: null, createdAt: "2026-01-02T00:00:00Z", updatedAt: "2026-01-02T00:00:00Z", edited: false,
  educatorId: 1, educatorImage: null, educatorName: "Edu", entry1: "1", entry2: null, exit1: "2", exit2: null, exit3: null,
  ideaType: "Leverage", imageIds: [], imageUrls: [], imageFullUrls: [], invalidationLevel: "0.5", isNew: null, market: "forex", marketType: "Forex",
  notes: null, orderType: "BUY", pair: "EURUSD", specialty: null, status: "active", timeFrame: "H1", videoUrl: null,
};

beforeEach(() => {
  forgetPositions(); // no answers noted by another test
  FakeEventSource.all = [];
  vi.stubGlobal("EventSource", FakeEventSource);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function mount() {
  const client = testQueryClient();
  const received: { event: RealtimeEvent; viewerId: number }[] = [];
  const record = (_: unknown, event: RealtimeEvent, viewer: { id: number }) => received.push({ event, viewerId: viewer.id });
  const handlers: EventHandlers = { "idea.created": record, "idea.updated": record };
  const onGaveUp = vi.fn();
  const utils = render(
    <QueryClientProvider client={client}>
      <RealtimeConnection viewer={{ id: 5, role: "customer" }} handlers={handlers} onGaveUp={onGaveUp} />
    </QueryClientProvider>,
  );
  return { ...utils, client, received, onGaveUp };
}

describe("RealtimeConnection", () => {
  it("opens one stream, hands each event to its feature's handler as {type, ...data} and closes on unmount", () => {
    const { received, unmount } = mount();
    expect(FakeEventSource.all).toHaveLength(1);
    const es = FakeEventSource.all[0]!;
    expect(es.url).toBe("/api/events");
    expect([...es.listeners.keys()].sort()).toEqual(["idea.created", "idea.updated", "resync"]);
    act(() => es.open());
    act(() => es.emit("idea.created", idea, "41"));
    act(() => es.emit("idea.created", "not an object", "42"));
    expect(received).toEqual([{ event: { ...idea, type: "idea.created" }, viewerId: 5 }]);
    unmount();
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
  });

  it("shows Reconnecting… while the browser retries, and hides it once open", () => {
    mount();
    const es = FakeEventSource.all[0]!;
    act(() => es.open());
    expect(screen.queryByRole("status")).toBeNull();
    act(() => es.fail(FakeEventSource.CONNECTING));
    expect(screen.getByRole("status")).toHaveTextContent("Reconnecting…");
    act(() => es.open());
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("when the browser gives up, reconnects after a backoff from the last event id", () => {
    vi.useFakeTimers();
    const { onGaveUp } = mount();
    const es = FakeEventSource.all[0]!;
    act(() => es.open());
    act(() => es.emit("idea.updated", idea, "77"));
    act(() => es.fail(FakeEventSource.CLOSED));
    expect(onGaveUp).toHaveBeenCalledTimes(1);
    expect(FakeEventSource.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(retryDelay(0)));
    expect(FakeEventSource.all).toHaveLength(2);
    expect(FakeEventSource.all[1]!.url).toBe("/api/events?lastEventId=77");
  });
});

describe("RealtimeConnection after a gap", () => {
  const shown = ["ideas", "forex"];
  const stale = (client: ReturnType<typeof mount>["client"]) => client.getQueryState(shown)?.isInvalidated;

  it("refetches what is shown when the browser reopens the stream after an error, not on the first open", () => {
    const { client } = mount();
    client.setQueryData(shown, ["an idea"]);
    const es = FakeEventSource.all[0]!;
    act(() => es.open());
    expect(stale(client)).toBe(false);
    act(() => es.fail(FakeEventSource.CONNECTING)); // the browser retries by itself, with Last-Event-ID
    expect(stale(client)).toBe(false);
    act(() => es.open());
    expect(stale(client)).toBe(true);
  });

  it("refetches what is shown when a stream started after giving up, or after going offline, opens", () => {
    vi.useFakeTimers();
    const { client } = mount();
    act(() => FakeEventSource.all[0]!.open());
    act(() => FakeEventSource.all[0]!.fail(FakeEventSource.CLOSED));
    act(() => vi.advanceTimersByTime(retryDelay(0)));
    client.setQueryData(shown, ["an idea"]);
    act(() => FakeEventSource.all[1]!.open());
    expect(stale(client)).toBe(true);

    client.setQueryData(shown, ["fresh"]);
    act(() => window.dispatchEvent(new Event("online")));
    expect(stale(client)).toBe(false);
    act(() => FakeEventSource.all[2]!.open());
    expect(stale(client)).toBe(true);
  });

  it("on resync refetches what is shown and goes on from the resync's id", () => {
    vi.useFakeTimers();
    const { client, received } = mount();
    client.setQueryData(shown, ["an idea"]);
    const es = FakeEventSource.all[0]!;
    act(() => es.open());
    act(() => es.emit("resync", { lastEventId: 500 }, "500"));
    expect(stale(client)).toBe(true);
    expect(received).toEqual([]);
    act(() => es.fail(FakeEventSource.CLOSED));
    act(() => vi.advanceTimersByTime(retryDelay(0)));
    expect(FakeEventSource.all[1]!.url).toBe("/api/events?lastEventId=500");
  });
});

describe("RealtimeConnection's first stream", () => {
  it("starts from the earliest stream position of the answers already shown", () => {
    for (const position of ["42", "17", "30", "not a position", "-1"]) notePosition(position);
    mount().unmount();
    expect(FakeEventSource.all[0]!.url).toBe("/api/events?since=17");
    // Mounted again before any stream opened (as React's StrictMode does): the same position.
    const again = mount();
    expect(FakeEventSource.all[1]!.url).toBe("/api/events?since=17");
    act(() => FakeEventSource.all[1]!.open());
    again.unmount();
    // Once a stream opened, a later one with no answer since starts plainly.
    mount();
    expect(FakeEventSource.all[2]!.url).toBe("/api/events");
  });

  it("reloads what is shown when the server says something changed since", () => {
    notePosition("17");
    const { client } = mount();
    const es = FakeEventSource.all[0]!;
    const invalidate = vi.spyOn(client, "invalidateQueries");
    act(() => es.open());
    expect(invalidate).not.toHaveBeenCalled();
    act(() => es.emit("resync", { lastEventId: 23 }, "23"));
    expect(invalidate).toHaveBeenCalledTimes(1);
  });

  it("after giving up, reconnects from the same position while no event came", () => {
    vi.useFakeTimers();
    notePosition("17");
    mount();
    act(() => FakeEventSource.all[0]!.fail(FakeEventSource.CLOSED));
    act(() => vi.advanceTimersByTime(retryDelay(0)));
    expect(FakeEventSource.all[1]!.url).toBe("/api/events?since=17");
  });
});

describe("retryDelay", () => {
  it("doubles up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 10].map(retryDelay)).toEqual([2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
