import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderApp } from "../../test/render";

const customer = {
  id: 8, role: "customer", firstName: "Casey", lastName: "Customer", email: "c@example.com",
  specialty: null, slug: null, displayName: "Casey Customer",
};
const rooms = [
  { id: 1, name: "Leverage Ideas", createdAt: "2026-01-01T00:00:00Z" },
  { id: 2, name: "Exchange Ideas", createdAt: "2026-01-02T00:00:00Z" },
  { id: 3, name: "General", createdAt: "2026-01-03T00:00:00Z" },
];
const message = {
  id: 11, roomId: 1, userId: 1, userName: "", userRole: "educator", specialty: "Forex Trading", userImage: null,
  message: "Watch 1.0850", imageUrl: null, createdAt: "2026-11-22T10:00:00Z", updatedAt: "2026-11-22T10:05:00Z",
  isEdited: true, hearts: 2, likes: 0, hearted: false, liked: false,
};

function stub(roomList: unknown[], calls: string[] = []) {
  let current = { ...message };
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const url = new URL(req.url, "http://localhost");
      calls.push(`${req.method} ${url.pathname}${url.search}`);
      if (url.pathname === "/api/config") return jsonResponse({ appName: "Trade Ideas", channelUrl: "", educatorSlugs: [] });
      if (url.pathname === "/api/auth/user") return jsonResponse(customer);
      if (url.pathname === "/api/chat/rooms") return jsonResponse(roomList);
      if (url.pathname === "/api/chat/rooms/1/messages") return jsonResponse({ items: [current], nextCursor: null });
      if (url.pathname === "/api/chat/rooms/2/messages") return jsonResponse({ items: [], nextCursor: null });
      if (url.pathname === "/api/chat/messages/11/reactions/heart" && req.method === "PUT") {
        current = { ...current, hearts: 3, hearted: true };
        return jsonResponse(current);
      }
      return jsonResponse({ message: "Not Found", code: "not_found" }, 404);
    }),
  );
}

describe("CustomerChatPage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the two rooms, the first selected, read-only message cards and reactions", async () => {
    const calls: string[] = [];
    stub(rooms, calls);
    renderApp("/customer/chat");
    expect(await screen.findByRole("tab", { name: "Leverage Ideas" })).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tab", { name: "Exchange Ideas" })).toBeInTheDocument();
    expect(screen.queryByRole("tab", { name: "General" })).not.toBeInTheDocument();

    const card = (await screen.findByText("Watch 1.0850")).closest("li")!;
    expect(within(card).getByText("Educator")).toBeInTheDocument();
    expect(within(card).getByText("Forex Trading")).toBeInTheDocument();
    expect(within(card).getByText("(edited)")).toBeInTheDocument();
    expect(screen.queryByRole("textbox")).not.toBeInTheDocument();
    expect(screen.getByText("Read-only channel - Educators share trading insights and analysis here.")).toBeInTheDocument();
    expect(calls).toContain("GET /api/chat/rooms/1/messages?limit=50&mine=false");

    const heart = within(card).getByRole("button", { name: /^Heart \d+$/ });
    expect(heart).toHaveAttribute("aria-pressed", "false");
    expect(heart).toHaveTextContent("2");
    await userEvent.setup().click(heart);
    await waitFor(() => expect(within(card).getByRole("button", { name: /^Heart \d+$/ })).toHaveAttribute("aria-pressed", "true"));
    expect(within(card).getByRole("button", { name: /^Heart \d+$/ })).toHaveTextContent("3");
    expect(calls).toContain("PUT /api/chat/messages/11/reactions/heart");
  });

  it("shows No messages yet for an empty room", async () => {
    stub(rooms);
    renderApp("/customer/chat");
    await userEvent.setup().click(await screen.findByRole("tab", { name: "Exchange Ideas" }));
    expect(await screen.findByText("No messages yet")).toBeInTheDocument();
  });

  it("opens the room named in the address (where a chat notification leads)", async () => {
    stub(rooms);
    renderApp("/customer/chat?room=2");
    expect(await screen.findByRole("tab", { name: "Exchange Ideas" })).toHaveAttribute("aria-selected", "true");
    expect(await screen.findByText("No messages yet")).toBeInTheDocument();
  });

  it("asks to select a channel when there is no room", async () => {
    stub([]);
    renderApp("/customer/chat");
    expect(await screen.findByText("Select a channel to view educator insights")).toBeInTheDocument();
  });
});
