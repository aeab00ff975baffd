import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { dispatch, type RealtimeEvent, type Viewer } from "../../lib/realtime";
import { deskEventHandlers } from "./realtime";
import { deskKeys, type Journal } from "./types";

const CUSTOMER: Viewer = { id: 100, role: "customer" };

function withJournal(ideaIds: (number | null)[]) {
  const qc = new QueryClient();
  qc.setQueryData(deskKeys.journal, { entries: ideaIds.map((ideaId) => ({ ideaId })) } as unknown as Journal);
  return qc;
}

const stale = (qc: QueryClient) => qc.getQueryState(deskKeys.journal)?.isInvalidated;

describe("desk events", () => {
  it("reloads the journal when an idea in it changes status or is deleted", () => {
    const closed = withJournal([7, null]);
    dispatch(deskEventHandlers, closed, { type: "idea.status", id: 7 } as RealtimeEvent, CUSTOMER);
    expect(stale(closed)).toBe(true);
    const deleted = withJournal([7]);
    dispatch(deskEventHandlers, deleted, { type: "idea.deleted", id: 7, market: "forex", ideaType: "Leverage" } as RealtimeEvent, CUSTOMER);
    expect(stale(deleted)).toBe(true);
  });

  it("reloads the journal and its summary when the price check of an idea in it settles (issue #42)", () => {
    const qc = withJournal([7]);
    qc.setQueryData(deskKeys.journalSummary, { managementCost: { count: 0, averageCostR: null, interval95: null, bySetup: [] } });
    const check = (state: string) =>
      ({ type: "idea.verification", id: 7, educatorId: 1, verification: { state, outcome: "exit1", rMultiple: 2 } }) as unknown as RealtimeEvent;
    // A step before the verdict changes nothing the journal shows.
    dispatch(deskEventHandlers, qc, check("triggered"), CUSTOMER);
    expect(stale(qc)).toBe(false);
    expect(qc.getQueryState(deskKeys.journalSummary)?.isInvalidated).toBe(false);
    dispatch(deskEventHandlers, qc, check("settled"), CUSTOMER);
    expect(stale(qc)).toBe(true);
    expect(qc.getQueryState(deskKeys.journalSummary)?.isInvalidated).toBe(true);
  });

  it("leaves the journal alone when an idea the customer did not take is checked", () => {
    const qc = withJournal([7]);
    const event = { type: "idea.verification", id: 8, educatorId: 1, verification: { state: "settled" } } as unknown as RealtimeEvent;
    dispatch(deskEventHandlers, qc, event, CUSTOMER);
    expect(stale(qc)).toBe(false);
  });

  it("reloads an entry that showed a settled check when that check changes again", () => {
    const qc = new QueryClient();
    qc.setQueryData(deskKeys.journal, { entries: [{ ideaId: 7, checkedRMultiple: 2 }] } as unknown as Journal);
    const event = { type: "idea.verification", id: 7, educatorId: 1, verification: { state: "unverifiable" } } as unknown as RealtimeEvent;
    dispatch(deskEventHandlers, qc, event, CUSTOMER);
    expect(stale(qc)).toBe(true);
  });

  it("leaves it alone for ideas the customer did not take (a publish makes no tab call the server)", () => {
    const qc = withJournal([7]);
    dispatch(deskEventHandlers, qc, { type: "idea.status", id: 8 } as RealtimeEvent, CUSTOMER);
    dispatch(deskEventHandlers, qc, { type: "idea.created", id: 9 } as RealtimeEvent, CUSTOMER);
    expect(stale(qc)).toBe(false);
  });

  it("a first load under way when the journal changes elsewhere is replaced by a fresh one", async () => {
    const qc = new QueryClient();
    const journal = (ideaIds: number[]) => ({ entries: ideaIds.map((ideaId) => ({ ideaId })) }) as unknown as Journal;
    let answerOld: (data: Journal) => void = () => undefined;
    const answers = [
      new Promise<Journal>((resolve) => (answerOld = resolve)), // answered before the change
      Promise.resolve(journal([7, 8])), // asked after it
    ];
    const shown = new QueryObserver(qc, { queryKey: deskKeys.journal, queryFn: () => answers.shift()!, staleTime: Infinity });
    const unsubscribe = shown.subscribe(() => undefined);
    dispatch(deskEventHandlers, qc, { type: "journal.changed" } as RealtimeEvent, CUSTOMER);
    answerOld(journal([7]));
    await vi.waitFor(() => expect(qc.getQueryState(deskKeys.journal)).toMatchObject({ status: "success", fetchStatus: "idle" }));
    expect(qc.getQueryData<Journal>(deskKeys.journal)!.entries.map((entry) => entry.ideaId)).toEqual([7, 8]);
    unsubscribe();
  });
});
