import { describe, expect, it } from "vitest";
import { DISMISS_WINDOW_MS, INSTALL_DISMISSED_KEY, isDismissed, isStandalone, rememberDismissal } from "./dismissal";

function memoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2025, 0, 15, 12);

describe("install banner dismissal (7 days)", () => {
  it("is not dismissed when nothing is stored", () => {
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW, memoryStore())).toBe(false);
  });

  it("stores the dismissal time and hides for 7 days", () => {
    const store = memoryStore();
    rememberDismissal(INSTALL_DISMISSED_KEY, NOW, store);
    expect(store.data.get(INSTALL_DISMISSED_KEY)).toBe(String(NOW));
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW, store)).toBe(true);
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW + 6 * DAY, store)).toBe(true);
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW + DISMISS_WINDOW_MS - 1, store)).toBe(true);
  });

  it("shows again once 7 days have passed", () => {
    const store = memoryStore({ [INSTALL_DISMISSED_KEY]: String(NOW) });
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW + DISMISS_WINDOW_MS, store)).toBe(false);
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW + 8 * DAY, store)).toBe(false);
  });

  it("ignores unreadable or future values", () => {
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW, memoryStore({ [INSTALL_DISMISSED_KEY]: "yesterday" }))).toBe(false);
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW, memoryStore({ [INSTALL_DISMISSED_KEY]: String(NOW + DAY) }))).toBe(false);
  });

  it("works without storage", () => {
    expect(isDismissed(INSTALL_DISMISSED_KEY, NOW, null)).toBe(false);
    expect(() => rememberDismissal(INSTALL_DISMISSED_KEY, NOW, null)).not.toThrow();
  });
});

describe("isStandalone", () => {
  const fakeWindow = (standaloneMedia: boolean, iosStandalone?: boolean) =>
    ({
      matchMedia: (q: string) => ({ matches: standaloneMedia && q === "(display-mode: standalone)" }),
      navigator: { standalone: iosStandalone },
    }) as unknown as Window;

  it("detects display-mode standalone", () => {
    expect(isStandalone(fakeWindow(true))).toBe(true);
  });
  it("detects iOS home-screen apps", () => {
    expect(isStandalone(fakeWindow(false, true))).toBe(true);
  });
  it("is false in a browser tab", () => {
    expect(isStandalone(fakeWindow(false, false))).toBe(false);
  });
});
