import { describe, expect, it } from "vitest";
import { RESULT_FIELDS, revisionText } from "./revisionText";

const change = (field: string, oldValue: string | null, newValue: string | null) => ({ field, oldValue, newValue });

describe("revisionText", () => {
  it("says a result change in the card's words", () => {
    expect(revisionText(change("outcome", "exit1", null), 4)).toBe("Outcome: Exit 1 reached → none");
    expect(revisionText(change("status", "successful", "pending"), 4)).toBe("Status: Successful → Pending");
    expect(revisionText(change("status", "active", "unsuccessful"), 4)).toBe("Status: Active → Unsuccessful");
    expect(revisionText(change("outcome", null, "invalidation"), 4)).toBe("Outcome: none → Stopped at invalidation");
    expect(revisionText(change("closePrice", null, "1.0921"), 4)).toBe("Close price: none → 1.0921");
  });

  it("writes levels as the card does and names media plainly", () => {
    expect(revisionText(change("entry1", "64200", "64500"), 0)).toBe("Entry 1: 64,200 → 64,500");
    expect(revisionText(change("exit2", "1.09", null), 4)).toBe("Exit 2: 1.0900 → none");
    expect(revisionText(change("imageIds", "1,2", "1,2,3"), 4)).toBe("Photos: 2 photos → 3 photos");
    expect(revisionText(change("audioUrl", null, "/media/9"), 4)).toBe("Voice explanation: none → a voice note");
    expect(revisionText(change("orderType", "BUY", "SELL"), 4)).toBe("Direction: Bullish → Bearish");
  });

  it("keeps results apart from edits", () => {
    expect([...RESULT_FIELDS].sort()).toEqual(["closePrice", "outcome", "status"]);
  });
});
