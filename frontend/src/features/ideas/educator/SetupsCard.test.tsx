import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { SetupsCard } from "./SetupsCard";
import type { Setup } from "../api/types";

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <SetupsCard />
      <Toaster />
    </QueryClientProvider>,
  );
}

/** A small server of the educator's setups: list, add (names unique ignoring case), rename, delete. */
function setupsServer() {
  const setups: Setup[] = [{ id: 1, educatorId: 1, name: "Breakout retest", description: "Old ceiling, new floor.", ideas: 3 }];
  const calls: string[] = [];
  const fetch = vi.fn(async (req: Request) => {
    const path = new URL(req.url).pathname;
    calls.push(`${req.method} ${path}`);
    if (req.method === "GET") return json(setups);
    if (req.method === "POST") {
      const body = (await req.json()) as { name: string; description: string | null };
      if (setups.some((s) => s.name.toLowerCase() === body.name.trim().toLowerCase())) {
        return json({ message: `You already have a setup named ${body.name}.`, code: "setup_name_taken" }, 422);
      }
      const added = { id: setups.length + 1, educatorId: 1, name: body.name.trim(), description: body.description, ideas: 0 };
      setups.push(added);
      return json(added, 201);
    }
    const id = Number(path.split("/").pop());
    const index = setups.findIndex((s) => s.id === id);
    if (req.method === "DELETE") {
      setups.splice(index, 1);
      return new Response(null, { status: 204 });
    }
    const body = (await req.json()) as { name: string; description: string | null };
    setups[index] = { ...setups[index]!, ...body };
    return json(setups[index]);
  });
  return { fetch, calls };
}

describe("SetupsCard", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("lists the setups, adds one, refuses a name already kept, renames and deletes only unused ones", async () => {
    const server = setupsServer();
    vi.stubGlobal("fetch", server.fetch);
    renderCard();
    const user = userEvent.setup();
    const list = await screen.findByRole("list", { name: "Your setups" });
    expect(within(list).getByText("Breakout retest")).toBeInTheDocument();
    expect(within(list).getByText("3 ideas")).toBeInTheDocument();
    // A setup that ideas name stays: no delete button for it.
    expect(screen.queryByRole("button", { name: "Delete Breakout retest" })).toBeNull();

    const add = screen.getByRole("form", { name: "Add a setup" });
    await user.type(within(add).getByLabelText("Setup name"), "breakout RETEST");
    await user.click(within(add).getByRole("button", { name: "Add setup" }));
    expect(await within(add).findByRole("alert")).toHaveTextContent("You already have a setup named breakout RETEST.");

    await user.clear(within(add).getByLabelText("Setup name"));
    await user.type(within(add).getByLabelText("Setup name"), "Range fade");
    await user.type(within(add).getByLabelText("Description"), "Sell the top, buy the bottom.");
    await user.click(within(add).getByRole("button", { name: "Add setup" }));
    expect(await within(list).findByText("Range fade")).toBeInTheDocument();
    expect(within(add).getByLabelText("Setup name")).toHaveValue("");

    await user.click(screen.getByRole("button", { name: "Edit Range fade" }));
    const edit = screen.getByRole("form", { name: "Edit Range fade" });
    await user.clear(within(edit).getByLabelText("Setup name"));
    await user.type(within(edit).getByLabelText("Setup name"), "Range fade at the edges");
    await user.click(within(edit).getByRole("button", { name: "Save setup" }));
    expect(await within(list).findByText("Range fade at the edges")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Delete Range fade at the edges" }));
    await vi.waitFor(() => expect(within(list).queryByText("Range fade at the edges")).toBeNull());
    expect(server.calls).toContain("DELETE /api/me/setups/2");
    expect(server.calls).toContain("PATCH /api/me/setups/2");
  });
});
