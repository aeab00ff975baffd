import { screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../../test/render";

const customer = {
  id: 8, role: "customer", firstName: "Casey", lastName: "Customer", email: "c@example.com",
  specialty: null, slug: null, displayName: "Casey Customer",
};
const closed = {
  id: 7, educatorId: 1, educatorName: "Alex Morgan", educatorImage: null, specialty: "Forex Trading", pair: "EUR/USD",
  timeFrame: "4H", orderType: "BUY", ideaType: "Leverage", marketType: "Forex", market: "forex", entry1: "1.0850",
  entry2: null, invalidationLevel: "1.0795", exit1: "1.0910", exit2: "1.0960", exit3: null, notes: "", status: "successful",
  imageIds: [], imageUrls: [], imageFullUrls: [], chartUrl: null, videoUrl: null, audioUrl: null,
  createdAt: "2026-11-20T10:00:00Z", updatedAt: "2026-11-21T10:00:00Z", edited: false, editedAfterPublish: false,
  educatorSlug: "alex-morgan", outcome: "exit2", closePrice: null, closedAt: "2026-11-21T10:00:00Z", rMultiple: 2.0, isNew: false,
  identityFixedAt: "2026-11-20T10:15:00Z", resultFixedAt: "2026-11-21T10:15:00Z",
};

function stub() {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const url = new URL(req.url, "http://localhost");
      if (url.pathname === "/api/config") return jsonResponse({ appName: "Trade Ideas", channelUrl: "", educatorSlugs: [] });
      if (url.pathname === "/api/auth/user") return jsonResponse(customer);
      if (url.pathname === "/api/trade-ideas/7") return jsonResponse(closed);
      return jsonResponse({ message: "Trade idea not found", code: "not_found" }, 404);
    }),
  );
}

describe("IdeaPage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the one idea's card with how it ended", async () => {
    stub();
    renderApp("/customer/ideas/7");
    expect(await screen.findByRole("article", { name: "EUR/USD trade idea" })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "EUR/USD Trade Idea" })).toBeInTheDocument();
    expect(screen.getByText("Exit 2 reached")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to Forex" })).toHaveAttribute("href", "/customer/forex");
  });

  it("shows the 404 page for an idea that does not exist", async () => {
    stub();
    renderApp("/customer/ideas/999");
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
  });
});
