import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdeaForm } from "./IdeaForm";

function renderForm(educatorId: number | null = 1) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <IdeaForm educatorId={educatorId ?? undefined} />
      <Toaster />
    </QueryClientProvider>,
  );
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** The educator's setups (GET /api/me/setups) answered from `setups`; every other call goes to `other`. */
function server(setups: unknown[], other: (req: Request) => Promise<Response> | Response) {
  return vi.fn(async (req: Request) => (req.method === "GET" && new URL(req.url).pathname === "/api/me/setups" ? json(setups) : other(req)));
}

const SETUPS = [
  { id: 7, educatorId: 1, name: "Breakout retest", description: null, ideas: 0 },
  { id: 8, educatorId: 1, name: "Range fade", description: "Fade the edges.", ideas: 2 },
];

async function fillRequired(user: ReturnType<typeof userEvent.setup>) {
  for (const [label, value] of [
    ["Pair", "EUR/USD"], ["Time Frame", "4H"], ["Entry 1", "1.08"], ["Invalidation Level", "1.09"], ["Exit 1", "1.07"],
  ] as const) {
    await user.type(screen.getByLabelText(label, { exact: false }), value);
  }
}

describe("IdeaForm", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("labels every field and starts with the spec's defaults", () => {
    renderForm();
    for (const label of ["Pair", "Time Frame", "Entry 1", "Entry 2", "Invalidation Level", "Exit 1", "Exit 2", "Exit 3", "Notes", "Photos"]) {
      expect(screen.getByLabelText(label, { exact: false })).toBeInTheDocument();
    }
    expect(screen.getByRole("radio", { name: "Crypto" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Bullish" })).toBeChecked();
    expect(screen.getByRole("radio", { name: "Leverage" })).toBeChecked();
    expect(screen.getByLabelText("Pair", { exact: false })).toHaveAttribute("placeholder", "BTC/USDT");
  });

  it("shows Loading... until the user is known", () => {
    renderForm(null);
    expect(screen.getByRole("button", { name: "Loading..." })).toBeDisabled();
  });

  it("refuses to submit without the required fields", async () => {
    const posted = vi.fn(() => json({}, 201));
    vi.stubGlobal("fetch", server([], posted));
    renderForm();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Pair", { exact: false }), "BTC/USDT");
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please fill in all required fields");
    expect(screen.getByLabelText("Time Frame", { exact: false })).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Pair", { exact: false })).not.toHaveAttribute("aria-invalid");
    expect(await screen.findByText("Trade Idea Creation Failed")).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it("posts the idea, toasts success and resets", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      server([], async (req: Request) => {
        bodies.push(await req.json());
        return json({ id: 1 }, 201);
      }),
    );
    renderForm();
    const user = userEvent.setup();
    await user.click(screen.getByRole("radio", { name: "Forex" }));
    await user.click(screen.getByRole("radio", { name: "Bearish" }));
    await user.type(screen.getByLabelText("Pair", { exact: false }), "EUR/USD");
    await user.type(screen.getByLabelText("Time Frame", { exact: false }), "4H");
    await user.type(screen.getByLabelText("Entry 1", { exact: false }), "1.08");
    await user.type(screen.getByLabelText("Invalidation Level", { exact: false }), "1.09");
    await user.type(screen.getByLabelText("Exit 1", { exact: false }), "1.07");
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(await screen.findByText("Trade idea created successfully")).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({
      marketType: "Forex",
      orderType: "SELL",
      ideaType: "Leverage",
      pair: "EUR/USD",
      entry2: null,
      imageIds: [],
    });
    await waitFor(() => expect(screen.getByLabelText("Pair", { exact: false })).toHaveValue(""));
  });

  it("shows the server's 422 message", async () => {
    vi.stubGlobal("fetch", server([], () => json({ message: "pair must be at most 32 characters", code: "validation" }, 422)));
    renderForm();
    const user = userEvent.setup();
    for (const [label, value] of [
      ["Pair", "X"], ["Time Frame", "1H"], ["Entry 1", "1"], ["Invalidation Level", "2"], ["Exit 1", "3"],
    ] as const) {
      await user.type(screen.getByLabelText(label, { exact: false }), value);
    }
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(await screen.findByText("pair must be at most 32 characters")).toBeInTheDocument();
    expect(screen.getByLabelText("Pair", { exact: false })).toHaveValue("X");
  });

  it("asks for a setup once the educator keeps any, and posts it with the reason", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      server(SETUPS, async (req: Request) => {
        bodies.push(await req.json());
        return json({ id: 1 }, 201);
      }),
    );
    renderForm();
    const user = userEvent.setup();
    const setup = await screen.findByRole("combobox", { name: /Setup/ });
    expect(setup).toHaveValue("");
    await fillRequired(user);
    await user.type(screen.getByLabelText(/^Why/), "  Retest held.  ");
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Please choose one of your setups");
    expect(setup).toHaveAttribute("aria-invalid", "true");
    expect(bodies).toEqual([]);
    await user.selectOptions(setup, "Range fade");
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(await screen.findByText("Trade idea created successfully")).toBeInTheDocument();
    expect(bodies[0]).toMatchObject({ pair: "EUR/USD", setupId: 8, reason: "Retest held." });
  });

  it("offers no setup choice to an educator who keeps none, and sends none", async () => {
    const bodies: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      server([], async (req: Request) => {
        bodies.push(await req.json());
        return json({ id: 1 }, 201);
      }),
    );
    renderForm();
    const user = userEvent.setup();
    await fillRequired(user);
    await user.click(screen.getByRole("button", { name: "Create Trade Idea" }));
    expect(await screen.findByText("Trade idea created successfully")).toBeInTheDocument();
    expect(screen.queryByRole("combobox", { name: /Setup/ })).toBeNull();
    expect(bodies[0]).toMatchObject({ setupId: null, reason: null });
  });
});
