import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";

const config = { appName: "Trade Ideas", channelUrl: "https://t.example/channel", educatorSlugs: [] };
type Handler = (req: Request) => Response | Promise<Response>;

function mockFetch(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const { pathname } = new URL(req.url, "http://localhost");
    const handler = routes[`${req.method} ${pathname}`];
    if (!handler) return jsonResponse({ message: "Not Found", code: "not_found" }, 404);
    return handler(req);
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const state = (next: string) => ({ status: "complete", planName: "Alex Morgan monthly", email: "new@example.com", next });

describe("CheckoutDonePage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("a new visitor sets a password for the e-mail Stripe collected", async () => {
    const bodies: unknown[] = [];
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "GET /api/billing/checkout/cs_test1": () => jsonResponse(state("set_password")),
      "POST /api/billing/checkout/cs_test1/account": async (req) => {
        bodies.push(await req.json());
        return jsonResponse({ message: "no", code: "account_exists" }, 409);
      },
    });
    renderApp("/billing/done?session_id=cs_test1");
    expect(await screen.findByText("new@example.com")).toBeInTheDocument();
    const ue = userEvent.setup();
    await ue.type(screen.getByLabelText("New password"), "long enough 1");
    await ue.type(screen.getByLabelText("Repeat password"), "long enough 2");
    await ue.click(screen.getByRole("button", { name: "Create My Account" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The passwords do not match");
    await ue.clear(screen.getByLabelText("Repeat password"));
    await ue.type(screen.getByLabelText("Repeat password"), "long enough 1");
    await ue.click(screen.getByRole("button", { name: "Create My Account" }));
    await waitFor(() => expect(bodies).toEqual([{ password: "long enough 1" }]));
    expect(await screen.findByRole("alert")).toHaveTextContent("no");
  });

  it("an e-mail that has an account must sign in first and come back", async () => {
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "GET /api/billing/checkout/cs_test2": () => jsonResponse(state("sign_in")),
    });
    renderApp("/billing/done?session_id=cs_test2");
    const link = await screen.findByRole("link", { name: "Sign in" });
    expect(link).toHaveAttribute("href", `/login?next=${encodeURIComponent("/billing/done?session_id=cs_test2")}`);
  });

  it("someone else's checkout says so", async () => {
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "GET /api/billing/checkout/cs_other": () => jsonResponse({ message: "Checkout not found", code: "not_found" }, 404),
    });
    renderApp("/billing/done?session_id=cs_other");
    expect(await screen.findByRole("alert")).toHaveTextContent("Checkout not found");
  });
});
