import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { dispatch, type RealtimeEvent } from "../../lib/realtime";
import { trackRecordKeys } from "./queryKeys";
import { trackRecordEventHandlers } from "./realtime";

describe("trackRecordEventHandlers", () => {
  it("marks every cached track record stale when a record changes", () => {
    const qc = new QueryClient();
    qc.setQueryData(trackRecordKeys.list, []);
    qc.setQueryData(trackRecordKeys.one(1, {}), { totalR: 1 });
    const event = { type: "idea.record", educatorId: 1, days: ["2026-01-02"], closedIdeaId: null } as RealtimeEvent;
    dispatch(trackRecordEventHandlers, qc, event, { id: 9, role: "customer" });
    expect(qc.getQueryState(trackRecordKeys.list)?.isInvalidated).toBe(true);
    expect(qc.getQueryState(trackRecordKeys.one(1, {}))?.isInvalidated).toBe(true);
  });

  it("leaves other features' data alone", () => {
    const qc = new QueryClient();
    qc.setQueryData(["ideas", "list", {}], { items: [] });
    dispatch(trackRecordEventHandlers, qc, { type: "idea.record", educatorId: 1, days: [], closedIdeaId: null } as RealtimeEvent, { id: 9, role: "customer" });
    expect(qc.getQueryState(["ideas", "list", {}])?.isInvalidated).toBe(false);
  });

  it("a fetch under way when a record changes does not leave its old figures marked fresh", async () => {
    const qc = new QueryClient();
    const key = trackRecordKeys.one(1, {});
    qc.setQueryData(key, { totalR: 1 });
    let answerOld: (data: { totalR: number }) => void = () => undefined;
    const stale = new Promise<{ totalR: number }>((resolve) => (answerOld = resolve)); // answered before the change
    // A prefetch (nobody shows the figures yet): an invalidation does not refetch it.
    const prefetch = qc.prefetchQuery({ queryKey: key, queryFn: () => stale, staleTime: 0 });
    const event = { type: "idea.record", educatorId: 1, days: ["2026-01-02"], closedIdeaId: null } as RealtimeEvent;
    dispatch(trackRecordEventHandlers, qc, event, { id: 9, role: "customer" });
    answerOld({ totalR: 1 });
    await prefetch;
    await vi.waitFor(() => expect(qc.getQueryState(key)!.fetchStatus).toBe("idle"));
    expect(qc.getQueryState(key)!.isInvalidated).toBe(true); // the next page that shows them refetches
  });
});
