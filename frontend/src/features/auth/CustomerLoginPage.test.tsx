import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";

const config = { appName: "Trade Ideas", channelUrl: "https://t.example/channel", educatorSlugs: ["ada"] };
const user = {
  id: 8,
  role: "customer",
  firstName: "Casey",
  lastName: "Customer",
  email: "customer@example.com",
  specialty: null,
  slug: null,
  displayName: "Casey Customer",
};

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

async function fillAndSubmit() {
  const ue = userEvent.setup();
  await ue.type(screen.getByLabelText("Email"), "customer@example.com");
  await ue.type(screen.getByLabelText("Password"), "secret");
  await ue.click(screen.getByRole("button", { name: "Sign In" }));
  return ue;
}

describe("CustomerLoginPage", () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("renders labelled inputs, the headings and the legal links", async () => {
    mockFetch({ "GET /api/config": () => jsonResponse(config) });
    renderApp("/login");
    expect(screen.getByRole("heading", { name: "Login" })).toBeInTheDocument();
    expect(screen.getByText("Customer Portal - Learn Trading")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("name", "email");
    expect(screen.getByLabelText("Password")).toHaveAttribute("type", "password");
    expect(screen.getByRole("button", { name: "Terms of Use" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Privacy Policy" })).toBeInTheDocument();
    const channel = await screen.findByRole("link", { name: /messaging channel/i });
    expect(channel).toHaveAttribute("href", config.channelUrl);
    expect(channel).toHaveAttribute("target", "_blank");
    expect(channel.getAttribute("rel")).toContain("noopener");
  });

  it("opens the Terms of Use and Privacy Policy dialogs", async () => {
    mockFetch({ "GET /api/config": () => jsonResponse(config) });
    renderApp("/login");
    const ue = userEvent.setup();
    await ue.click(screen.getByRole("button", { name: "Terms of Use" }));
    const terms = await screen.findByRole("dialog", { name: "Terms of Use" });
    expect(terms).toHaveTextContent("Effective: January 2025");
    expect(terms).toHaveTextContent("legal@example.com");
    await ue.click(screen.getAllByRole("button", { name: "Close" })[0]!);
    await ue.click(screen.getByRole("button", { name: "Privacy Policy" }));
    expect(await screen.findByRole("dialog", { name: "Privacy Policy" })).toHaveTextContent("Your Rights");
  });

  it("unlocks the educator login after five quick clicks", async () => {
    mockFetch({ "GET /api/config": () => jsonResponse(config) });
    const { router } = renderApp("/login");
    const ue = userEvent.setup();
    for (let i = 0; i < 5; i += 1) await ue.click(screen.getByText("Customer Portal - Learn Trading"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/zinrai-educators-1"));
    expect(await screen.findByText("Educator Access Unlocked")).toBeInTheDocument();
    expect(await screen.findByRole("heading", { name: "Educator Login" })).toBeInTheDocument();
  });

  it("shows the server message in an alert when login fails", async () => {
    const fetchMock = mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "POST /api/auth/login": () => jsonResponse({ message: "Invalid email or password", code: "invalid_credentials" }, 401),
    });
    renderApp("/login");
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Invalid email or password");
    const loginCall = fetchMock.mock.calls.find(([r]) => r instanceof Request && r.url.endsWith("/api/auth/login"));
    const body = (await (loginCall![0] as Request).clone().json()) as Record<string, unknown>;
    expect(body).toEqual({ email: "customer@example.com", password: "secret", selectedRole: "customer" });
    expect(localStorage.length).toBe(0);
  });

  it("falls back to 'Login failed' when the error has no message", async () => {
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "POST /api/auth/login": () => new Response("oops", { status: 500 }),
    });
    renderApp("/login");
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Login failed");
  });

  it("shows the network error text when the request cannot be made", async () => {
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "POST /api/auth/login": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    renderApp("/login");
    await fillAndSubmit();
    expect(await screen.findByRole("alert")).toHaveTextContent("Network error. Please try again.");
  });

  it("goes to the market chooser after a successful login", async () => {
    let signedIn = false;
    mockFetch({
      "GET /api/config": () => jsonResponse(config),
      "POST /api/auth/login": () => {
        signedIn = true;
        return jsonResponse({ message: "Login successful", sessionToken: "t", user });
      },
      "GET /api/auth/user": () => (signedIn ? jsonResponse(user) : jsonResponse({ message: "Not signed in", code: "unauthorized" }, 401)),
    });
    const { router } = renderApp("/login");
    await fillAndSubmit();
    await waitFor(() => expect(router.state.location.pathname).toBe("/customer/dashboard"));
    expect(await screen.findByRole("heading", { name: "Choose Your Market" })).toBeInTheDocument();
    expect(await screen.findByText("Welcome back, Casey!")).toBeInTheDocument();
    expect(localStorage.getItem("sessionToken")).toBeNull();
    expect(localStorage.getItem("userRole")).toBe("customer"); // a hint only; the session is an HttpOnly cookie
  });

  it("sends someone already signed in from /login to their dashboard", async () => {
    mockFetch({ "GET /api/config": () => jsonResponse(config), "GET /api/auth/user": () => jsonResponse(user) });
    localStorage.setItem("userRole", "customer");
    const { router } = renderApp("/login");
    await waitFor(() => expect(router.state.location.pathname).toBe("/customer/dashboard"));
  });
});
