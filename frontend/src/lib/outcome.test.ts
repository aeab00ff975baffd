import { describe, expect, it } from "vitest";
import { formatR, outcomeLabel } from "./outcome";

describe("outcome", () => {
  it("labels every outcome", () => {
    expect(outcomeLabel("exit2", null)).toBe("Exit 2 reached");
    expect(outcomeLabel("invalidation", null)).toBe("Stopped at invalidation");
    expect(outcomeLabel("manual", "1.0921")).toBe("Closed at 1.0921");
    expect(outcomeLabel("not_triggered", null)).toBe("Not triggered");
  });

  it("formats R with a sign and two decimals", () => {
    expect(formatR(2.4)).toBe("+2.40 R");
    expect(formatR(-1)).toBe("-1.00 R");
    expect(formatR(0)).toBe("0.00 R");
    expect(formatR(null)).toBe("—");
  });
});
