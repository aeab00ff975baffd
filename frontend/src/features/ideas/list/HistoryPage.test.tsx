import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HistoryPage } from "./HistoryPage";

function json(body: unknown) {
  return new Response(JSON.stringify(body), { status: 200, headers: { "Content-Type": "application/json" } });
}

describe("HistoryPage", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the server for ideas with a lesson when "With a lesson" is on', async () => {
    const queries: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        const url = new URL(req.url);
        queries.push(url.search);
        return json({ items: [], nextCursor: null, lockedEducators: 0 });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <HistoryPage market="forex" ideaType="leverage" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByText("No Completed Leverage Ideas")).toBeInTheDocument();
    expect(queries.at(-1)).not.toContain("lesson");
    const toggle = screen.getByRole("button", { name: "With a lesson" });
    expect(toggle).toHaveAttribute("aria-pressed", "false");
    await userEvent.setup().click(toggle);
    expect(toggle).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText("No Leverage Ideas With a Lesson")).toBeInTheDocument();
    expect(new URLSearchParams(queries.at(-1)).get("lesson")).toBe("true");
    expect(new URLSearchParams(queries.at(-1)).get("status")).toBe("completed");
  });
});
