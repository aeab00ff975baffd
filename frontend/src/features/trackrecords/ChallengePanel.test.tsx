import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChallengePanel, PAST_RESULTS } from "./ChallengePanel";

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function renderPanel(market?: "forex" | "crypto") {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <ChallengePanel educatorId={3} market={market} />
    </QueryClientProvider>,
  );
}

const ANSWER = {
  runs: 10000,
  pass: { probability: 0.6234, interval95: [0.6139, 0.6328] },
  medianDaysToPass: 17,
  dailyLossBreach: 0.0412,
  maxLossBreach: 0.2101,
  ideas: 212,
  seed: 90210,
};

describe("ChallengePanel", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("runs the challenge with the member's risk and the preset rules, and says what the odds rest on", async () => {
    const asked: URLSearchParams[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        asked.push(new URL(req.url).searchParams);
        return json(ANSWER);
      }),
    );
    renderPanel("crypto");
    const user = userEvent.setup();
    expect(screen.getByRole("note")).toHaveTextContent(PAST_RESULTS);
    const risk = screen.getByLabelText("Risk per idea (%)");
    await user.clear(risk);
    await user.type(risk, "0.5");
    expect(asked).toHaveLength(0); // nothing runs until asked
    await user.click(screen.getByRole("button", { name: "Run the challenge" }));

    const chance = await screen.findByText("Chance of passing");
    const figure = chance.closest("div")!;
    expect(within(figure).getByText("62.3 %")).toBeInTheDocument();
    expect(within(figure).getByText("95 % interval 61.4 % to 63.3 %")).toBeInTheDocument();
    expect(screen.getByText("17")).toBeInTheDocument();
    expect(screen.getByText("Based on 212 decided price-checked ideas · 10,000 runs · seed 90210")).toBeInTheDocument();
    expect(screen.getByText(/Following these ideas at 0.5 % risk per idea, would you pass a challenge\?/)).toBeInTheDocument();
    expect(Object.fromEntries(asked[0]!)).toEqual({
      riskPercent: "0.5",
      profitTarget: "10",
      dailyLoss: "5",
      maxLoss: "10",
      days: "30",
      market: "crypto",
    });
  });

  it("names a rule out of range without asking, and shows the server's refusal of a short record", async () => {
    const fetch = vi.fn(async () =>
      json({ message: "A challenge needs at least 30 decided price-checked ideas; this selection has 12.", code: "too_few_ideas" }, 409),
    );
    vi.stubGlobal("fetch", fetch);
    renderPanel();
    const user = userEvent.setup();
    const risk = screen.getByLabelText("Risk per idea (%)");
    await user.clear(risk);
    await user.type(risk, "6");
    await user.click(screen.getByRole("button", { name: "Run the challenge" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Risk per idea must be from 0.1 to 5.");
    expect(fetch).not.toHaveBeenCalled();

    await user.clear(risk);
    await user.type(risk, "2");
    await user.click(screen.getByRole("button", { name: "Run the challenge" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "A challenge needs at least 30 decided price-checked ideas; this selection has 12.",
    );
  });
});
