import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../test/render";

const customer = {
  id: 8, role: "customer", firstName: "Casey", lastName: "Customer", email: "c@example.com",
  specialty: null, slug: null, displayName: "Casey Customer",
};

describe("logout", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("revokes the session, clears the cache and goes to /login", async () => {
    let loggedIn = true;
    const calls: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        const path = new URL(req.url, "http://localhost").pathname;
        calls.push(`${req.method} ${path}`);
        if (path === "/api/config") return jsonResponse({ appName: "Trade Ideas", channelUrl: "", educatorSlugs: [] });
        if (path === "/api/auth/logout") {
          loggedIn = false;
          return new Response(null, { status: 204 });
        }
        if (path === "/api/auth/user") {
          return loggedIn ? jsonResponse(customer) : jsonResponse({ message: "Not authenticated", code: "unauthorized" }, 401);
        }
        return jsonResponse({ message: "Not Found", code: "not_found" }, 404);
      }),
    );
    const { router, client } = renderApp("/customer/dashboard");
    await userEvent.setup().click(await screen.findByRole("button", { name: "Logout" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/login"));
    expect(calls).toContain("POST /api/auth/logout");
    expect(client.getQueryData(["auth", "user"])).toBeFalsy();
    expect(await screen.findByRole("heading", { name: "Login" })).toBeInTheDocument();
  });
});
