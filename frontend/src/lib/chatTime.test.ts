import { describe, expect, it } from "vitest";
import { chatTime as format } from "./chatTime";

// ICU may put a narrow no-break space before AM/PM.
const chatTime = (...args: Parameters<typeof format>) => format(...args).replace(/\s/g, " ");

const now = new Date(2026, 10, 22, 15, 30, 0);

describe("chatTime", () => {
  it("reads Now for the last minute, missing, invalid and future dates", () => {
    expect(chatTime(new Date(now.getTime() - 30_000), now)).toBe("Now");
    expect(chatTime(null, now)).toBe("Now");
    expect(chatTime("nope", now)).toBe("Now");
    expect(chatTime(new Date(now.getTime() + 60_000), now)).toBe("Now");
  });

  it("shows the clock time today and the date before", () => {
    const today = chatTime(new Date(2026, 10, 22, 9, 5), now, "en-US");
    expect(today).toBe("9:05 AM");
    expect(chatTime(new Date(2026, 10, 20, 9, 5), now, "en-US")).toBe("Nov 20, 9:05 AM");
    expect(chatTime(new Date(2025, 0, 2, 9, 5), now, "en-US")).toBe("Jan 2, 2025, 9:05 AM");
  });
});
