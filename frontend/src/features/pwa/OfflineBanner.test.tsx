import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { loadedAgo, offlineText } from "./OfflineBanner";

const NOW = Date.parse("2026-11-26T12:00:00Z");

function observe(client: QueryClient, key: string) {
  return new QueryObserver(client, { queryKey: [key], queryFn: () => Promise.resolve(key), enabled: false }).subscribe(() => undefined);
}

describe("the offline banner's text", () => {
  it("says how old the oldest answer on the screen is", () => {
    const client = new QueryClient();
    client.setQueryData(["ideas"], [], { updatedAt: NOW - 12 * 60_000 });
    client.setQueryData(["journal"], [], { updatedAt: NOW - 60_000 });
    client.setQueryData(["config"], {}, { updatedAt: NOW - 3 * 3_600_000 });
    observe(client, "ideas");
    observe(client, "journal");
    observe(client, "config");
    expect(offlineText(client, NOW)).toBe("Offline: showing what you last loaded, 12 min ago.");
  });

  it("says so when the screen was never loaded on this device", () => {
    const client = new QueryClient();
    observe(client, "chat");
    expect(offlineText(client, NOW)).toMatch(/^Offline: this screen was not loaded on this device yet/);
  });

  it("writes ages in plain words", () => {
    expect(loadedAgo(20_000)).toBe("just now");
    expect(loadedAgo(3 * 3_600_000)).toBe("3 h ago");
    expect(loadedAgo(26 * 3_600_000)).toBe("1 day ago");
  });
});
