import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";

const HEAD = "a".repeat(64);
const DAY = "b".repeat(64);

function serve(routes: Record<string, () => Response>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL) => {
      const req = input instanceof Request ? input : new Request(String(input));
      const { pathname } = new URL(req.url, "http://localhost");
      const handler = routes[`${req.method} ${pathname}`];
      return handler ? handler() : jsonResponse({ message: "Authentication required", code: "unauthorized" }, 401);
    }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("ProofPage", () => {
  it("shows the head and every listed day's fingerprint in full, without signing in", async () => {
    serve({
      "GET /api/proof": () =>
        jsonResponse({
          head: { seq: 57, hash: HEAD },
          days: [{ date: "2026-11-25", firstSeq: 40, lastSeq: 57, entries: 18, hash: DAY }],
        }),
    });
    renderApp("/proof");
    expect(await screen.findByRole("heading", { name: "How we keep the record honest" })).toBeInTheDocument();
    expect(await screen.findByText("Latest entry: #57")).toBeInTheDocument();
    expect(screen.getByText(HEAD)).toBeInTheDocument();
    const days = screen.getByRole("list", { name: "Daily fingerprints" });
    expect(within(days).getByText("2026-11-25")).toBeInTheDocument();
    expect(within(days).getByText(DAY)).toBeInTheDocument();
    expect(within(days).getByText("entries 40–57 (18)")).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "How to check it yourself" })).toBeInTheDocument();
  });

  it("marks today's fingerprint as not final until the UTC day ends", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-26T23:30:00Z"));
    serve({
      "GET /api/proof": () =>
        jsonResponse({
          head: { seq: 60, hash: HEAD },
          days: [
            { date: "2026-11-26", firstSeq: 58, lastSeq: 60, entries: 3, hash: HEAD },
            { date: "2026-11-25", firstSeq: 40, lastSeq: 57, entries: 18, hash: DAY },
          ],
        }),
    });
    renderApp("/proof");
    const days = await screen.findByRole("list", { name: "Daily fingerprints" });
    const rows = within(days).getAllByRole("listitem");
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(/^2026-11-26today, final at midnight UTC/);
    expect(rows[1]).toHaveTextContent(/^2026-11-25entries/);
    expect(within(days).getAllByText("today, final at midnight UTC")).toHaveLength(1);
  });

  it("says so when the fingerprints cannot be loaded", async () => {
    serve({ "GET /api/proof": () => jsonResponse({ message: "Database unavailable", code: "database_unavailable" }, 503) });
    renderApp("/proof");
    expect(await screen.findByRole("alert")).toHaveTextContent("Database unavailable");
  });
});
