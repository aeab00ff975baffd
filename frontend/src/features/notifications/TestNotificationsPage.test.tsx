import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, testQueryClient } from "../../test/render";
import { TestNotificationsPage, type EnsureSubscribed } from "./TestNotificationsPage";

function renderPage(ensureSubscribed: EnsureSubscribed) {
  const router = createMemoryRouter([{ path: "/", element: <TestNotificationsPage ensureSubscribed={ensureSubscribed} /> }]);
  return render(
    <QueryClientProvider client={testQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

function stubPush(answer: (body: { kind: string }) => Response, bodies: unknown[] = []) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const url = new URL(req.url, "http://localhost");
      if (url.pathname === "/api/push/test" && req.method === "POST") {
        const body = (await req.json()) as { kind: string };
        bodies.push(body);
        return answer(body);
      }
      return jsonResponse({ message: "Not Found" }, 404);
    }),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe("TestNotificationsPage", () => {
  it("subscribes first, then reports a sent test notification with details", async () => {
    const bodies: unknown[] = [];
    stubPush(() => jsonResponse({ success: true, message: "ok", details: { subscriptions: 1, sent: 1 } }), bodies);
    const ensure = vi.fn(async () => ({ ok: true }));
    renderPage(ensure);
    await userEvent.click(screen.getByRole("button", { name: "Send Test Notification" }));
    const status = await screen.findByRole("status");
    expect(status).toHaveTextContent("Test notification sent successfully!");
    expect(status).toHaveTextContent("subscriptions");
    expect(ensure).toHaveBeenCalledTimes(1);
    expect(bodies).toEqual([{ kind: "test" }]);
  });

  it("reports a failed trade notification as an alert, with the browser's reason", async () => {
    const bodies: { kind: string }[] = [];
    stubPush(() => jsonResponse({ success: false, message: "x", details: { subscriptions: 0, error: "No push subscription" } }), bodies);
    vi.stubGlobal("Notification", { permission: "denied" });
    renderPage(async () => ({ ok: false, message: "Notifications are blocked" }));
    await userEvent.click(screen.getByRole("button", { name: "Send Trade Notification" }));
    const alert = await screen.findByRole("alert");
    expect(alert).toHaveTextContent("Trade notification failed");
    // The reason is said once, in plain words (the browser's, which the member can fix), with the control beside it.
    expect(within(alert).getAllByText("Notifications are blocked")).toHaveLength(1);
    expect(within(alert).getByRole("button", { name: "Allow notifications" })).toBeInTheDocument();
    expect(alert).not.toHaveTextContent("PushAlert");
    expect(bodies[0]).toMatchObject({ kind: "trade", pair: "EUR/USD", orderType: "BUY", market: "Forex" });
  });

  it("shows the error texts when the request fails", async () => {
    stubPush(() => jsonResponse({ message: "Server exploded" }, 500));
    renderPage(async () => ({ ok: true }));
    await userEvent.click(screen.getByRole("button", { name: "Send Test Notification" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Error sending test notification");
    expect(screen.getByRole("alert")).toHaveTextContent("Server exploded");
    await userEvent.click(screen.getByRole("button", { name: "Send Trade Notification" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Error sending trade notification");
  });
});
