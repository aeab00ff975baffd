import { describe, expect, it } from "vitest";
import type { Idea } from "./types";
import { unseenFirst } from "./useActiveIdeas";

const NOW = Date.parse("2026-11-26T12:00:00Z");
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString();

function idea(id: number, fields: Partial<Idea>): Idea {
  return { id, status: "active", isNew: false, createdAt: hoursAgo(id), closedAt: null, ...fields } as Idea;
}

describe("the active list", () => {
  it("puts invalidated ideas after every live one, never NEW, and drops them 24 h after invalidation", () => {
    const ideas = [
      idea(1, { status: "invalidated", isNew: true, closedAt: hoursAgo(2) }),
      idea(2, { isNew: false }),
      idea(3, { isNew: true }),
      idea(4, { status: "invalidated", closedAt: hoursAgo(25) }),
      idea(5, { status: "pending" }),
    ];
    const shown = unseenFirst(ideas, NOW);
    expect(shown.map((i) => i.id)).toEqual([3, 2, 5, 1]);
    expect(shown.at(-1)?.isNew).toBe(false);
  });
});
