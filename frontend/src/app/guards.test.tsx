import { screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../test/render";

const config = { appName: "Trade Ideas", channelUrl: "", educatorSlugs: ["ada"] };
const customer = {
  id: 8, role: "customer", firstName: "Casey", lastName: "Customer", email: "c@example.com",
  specialty: null, slug: null, displayName: "Casey Customer",
};
const educator = { ...customer, id: 1, role: "educator", firstName: "Ada", slug: "ada", displayName: "Ada L" };

function stub(user: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const path = new URL(req.url, "http://localhost").pathname;
      if (path === "/api/config") return jsonResponse(config);
      if (path === "/api/trade-ideas") return jsonResponse({ items: [], nextCursor: null });
      if (path === "/api/me/unseen-counts") return jsonResponse({ forex: 0, crypto: 0, total: 0 });
      if (path === "/api/me/notification-settings") return jsonResponse({ forex: true, crypto: true });
      if (path === "/api/auth/user") {
        return user ? jsonResponse(user) : jsonResponse({ message: "Not authenticated", code: "unauthorized" }, 401);
      }
      return jsonResponse({ message: "Not Found", code: "not_found" }, 404);
    }),
  );
}

describe("route guards", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends anonymous visitors to /login", async () => {
    stub(null);
    const { router } = renderApp("/customer/forex");
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
  });

  it("sends a customer away from educator screens", async () => {
    stub(customer);
    const { router } = renderApp("/test-notifications");
    await waitFor(() => expect(router.state.location.pathname).toBe("/customer/forex"));
    expect(await screen.findByText("No Forex trade ideas available")).toBeInTheDocument();
  });

  it("shows the educator dashboard for a known slug and 404 for others", async () => {
    stub(educator);
    renderApp("/educator/ada");
    expect(await screen.findByText("No trade ideas created yet", undefined, { timeout: 5000 })).toBeInTheDocument();
  });

  it("shows 404 for an unknown educator slug", async () => {
    stub(educator);
    renderApp("/educator/nobody");
    expect(await screen.findByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
  });

  it("shows 404 for unknown routes", async () => {
    stub(null);
    renderApp("/nope");
    expect(screen.getByRole("heading", { name: "404 Page Not Found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: /home/i })).toHaveAttribute("href", "/");
  });
});
