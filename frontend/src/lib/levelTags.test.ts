import { describe, expect, it } from "vitest";
import { spreadTags } from "./levelTags";

describe("spreadTags", () => {
  it("centres each tag on its line when they are far apart", () => {
    expect(spreadTags([50, 150], 20, 300)).toEqual([40, 140]);
  });

  it("moves close tags apart without overlap, keeping their order", () => {
    const tops = spreadTags([100, 104, 98], 20, 300);
    const sorted = [...tops].sort((a, b) => a - b);
    for (let k = 1; k < sorted.length; k++) expect(sorted[k]! - sorted[k - 1]!).toBeGreaterThanOrEqual(20);
    expect(tops[2]).toBeLessThan(tops[0]!); // 98 is above 100 on screen
    expect(tops[0]).toBeLessThan(tops[1]!);
  });

  it("keeps every tag inside the pane at both edges", () => {
    const tops = spreadTags([2, 5, 296, 299], 20, 300);
    for (const top of tops) {
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top + 20).toBeLessThanOrEqual(300);
    }
    expect(tops).toEqual([0, 20, 260, 280]);
  });
});
