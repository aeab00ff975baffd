import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
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

  it("leaves it alone for ideas the customer did not take (a publish makes no tab call the server)", () => {
    const qc = withJournal([7]);
    dispatch(deskEventHandlers, qc, { type: "idea.status", id: 8 } as RealtimeEvent, CUSTOMER);
    dispatch(deskEventHandlers, qc, { type: "idea.created", id: 9 } as RealtimeEvent, CUSTOMER);
    expect(stale(qc)).toBe(false);
  });
});
