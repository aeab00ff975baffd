import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";

const HEAD = "a".repeat(64);
const DAY = "b".repeat(64);
const VERIFIER = { url: "/proof/verify_ledger.py", sha256: "c".repeat(64) };

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
          verifier: VERIFIER,
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

  it("offers the verifier with its SHA-256, the command with this site's address and a copy button per fingerprint", async () => {
    serve({
      "GET /api/proof": () =>
        jsonResponse({
          head: { seq: 57, hash: HEAD },
          days: [{ date: "2026-11-25", firstSeq: 40, lastSeq: 57, entries: 18, hash: DAY }],
          verifier: VERIFIER,
        }),
    });
    renderApp("/proof");
    const link = await screen.findByRole("link", { name: "Download verify_ledger.py" });
    expect(link).toHaveAttribute("href", "/proof/verify_ledger.py");
    expect(screen.getByText(VERIFIER.sha256)).toBeInTheDocument();
    expect(screen.getByText(`TRADEIDEAS_PASSWORD=… python3 verify_ledger.py ${window.location.origin} --email you@example.com`)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Copy fingerprint of 2026-11-25" })).toBeInTheDocument();
  });

  it("says who time-stamped each fingerprint and when, with the token to download", async () => {
    const token = { authority: "freetsa.org", at: "2026-11-26T00:05:04Z", seq: 57, hash: DAY, token: "MIIBAgM=" };
    const head = { authority: "timestamp.digicert.com", at: "2026-11-26T01:00:04Z", seq: 60, hash: HEAD, token: "MIIDBA==" };
    serve({
      "GET /api/proof": () =>
        jsonResponse({
          head: { seq: 60, hash: HEAD },
          days: [{ date: "2026-11-25", firstSeq: 40, lastSeq: 57, entries: 18, hash: DAY, timestamps: [token] }],
          timestamps: [head],
          verifier: VERIFIER,
        }),
    });
    renderApp("/proof");
    const stamps = await screen.findByRole("list", { name: "Time-stamps of the fingerprint of 2026-11-25" });
    expect(within(stamps).getByText("Time-stamped by freetsa.org at 00:05:04 UTC")).toBeInTheDocument();
    const download = within(stamps).getByRole("link", {
      name: "Download the time-stamp token of the fingerprint of 2026-11-25 by freetsa.org",
    });
    expect(download).toHaveAttribute("href", "data:application/octet-stream;base64,MIIBAgM=");
    expect(download).toHaveAttribute("download", "ledger-57-freetsa.org.tst");
    const latest = screen.getByRole("list", { name: "Time-stamps of the latest time-stamped entry" });
    expect(within(latest).getByText("Time-stamped by timestamp.digicert.com at 01:00:04 UTC")).toBeInTheDocument();
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
          verifier: VERIFIER,
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
