import { describe, expect, it } from "vitest";
import { journalCsv } from "./journalCsv";
import type { JournalEntry } from "./types";

const entry: JournalEntry = {
  id: 1,
  ideaId: 7,
  educatorName: "Alex Morgan",
  market: "forex",
  pair: "EUR/USD",
  orderType: "BUY",
  ideaType: "Leverage",
  entry1: "1.1000",
  entry2: null,
  invalidationLevel: "1.0950",
  exit1: "1.1100",
  exit2: null,
  exit3: null,
  fillPrice: "1.1000",
  size: 20000,
  exitPrice: "1.1100",
  note: 'Took it, "early", on the retest',
  status: "closed",
  rMultiple: 2,
  pnl: 200,
  riskAmount: 100,
  accountCurrency: "USD",
  ideaStatus: "active",
  ideaRMultiple: null,
  createdAt: "2026-11-23T10:00:00Z",
  closedAt: "2026-11-23T12:00:00Z",
};

describe("journalCsv", () => {
  it("writes a header and one row per entry, quoting where needed", () => {
    const [header, row] = journalCsv([entry]).split("\r\n");
    expect(header).toMatch(/^Taken at,Pair,Direction,Educator,/);
    expect(row).toContain("EUR/USD,BUY,Alex Morgan,1.1000,,1.0950,1.1100,,,1.1000,20000,1.1100");
    expect(row).toContain(",2,200,USD,active,");
    expect(row!.endsWith('"Took it, ""early"", on the retest"')).toBe(true);
  });

  it("defuses notes a spreadsheet would run as a formula", () => {
    expect(journalCsv([{ ...entry, note: "=HYPERLINK(1)" }])).toContain(",'=HYPERLINK(1)");
  });
});
