import { describe, expect, it } from "vitest";
import { outcomeLabel } from "./outcome";

describe("outcome", () => {
  it("labels every outcome", () => {
    expect(outcomeLabel("exit2", null)).toBe("Exit 2 reached");
    expect(outcomeLabel("invalidation", null)).toBe("Stopped at invalidation");
    expect(outcomeLabel("manual", "1.0921")).toBe("Closed at 1.0921");
    expect(outcomeLabel("not_triggered", null)).toBe("Not triggered");
  });
});
