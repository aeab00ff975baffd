import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { Toaster } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IdeaCard } from "./IdeaCard";
import type { Idea } from "../api/types";

const idea: Idea = {
  id: 7,
  educatorId: 1,
  educatorName: "Alex Morgan",
  educatorImage: null,
  specialty: "Forex Trading",
  pair: "EUR/USD",
  timeFrame: "4H",
  orderType: "BUY",
  ideaType: "Leverage",
  marketType: "Forex",
  market: "forex",
  entry1: "100",
  entry2: null,
  invalidationLevel: "90",
  exit1: "125",
  exit2: "130",
  exit3: null,
  notes: '<img src=x onerror="alert(1)"><b>bold</b>',
  setupId: 3,
  setupName: "Breakout retest",
  reason: "Retest of the weekly level <b>held</b>.",
  status: "active",
  imageIds: [],
  imageUrls: [],
  imageFullUrls: [],
  chartUrl: null,
  videoUrl: null,
  audioUrl: null,
  createdAt: new Date(Date.now() - 120_000).toISOString(),
  updatedAt: new Date().toISOString(),
  edited: false,
  editedAfterPublish: false,
  completed: false,
  educatorSlug: "alex-morgan",
  outcome: null,
  closePrice: null,
  closedAt: null,
  rMultiple: null,
  lesson: null,
  identityFixedAt: new Date(Date.now() + 780_000).toISOString(),
  resultFixedAt: null,
  isNew: true,
  verification: null,
  taken: null,
};

function renderCard(value: Idea = idea) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <IdeaCard idea={value} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

describe("IdeaCard", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("shows the educator, age, badges, levels and R:R", () => {
    renderCard();
    const card = screen.getByRole("article", { name: "EUR/USD trade idea" });
    expect(within(card).getByText("Alex Morgan")).toBeInTheDocument();
    expect(within(card).getByText("2m ago")).toBeInTheDocument();
    expect(within(card).getByText("NEW")).toBeInTheDocument();
    expect(within(card).getByText("Bullish")).toBeInTheDocument();
    expect(within(card).getByText("Leverage")).toBeInTheDocument();
    expect(within(card).getByText("R:R 1:2.5")).toBeInTheDocument();
    for (const label of ["Entry 1", "Invalidation", "Exit 1", "Exit 2"]) {
      expect(within(card).getByRole("button", { name: `Copy ${label}` })).toBeInTheDocument();
    }
    expect(within(card).queryByRole("button", { name: "Copy Entry 2" })).not.toBeInTheDocument();
  });

  it("shows how a completed idea ended, when, and R, and links the educator's track record", () => {
    renderCard({ ...idea, status: "successful", completed: true, outcome: "exit2", closedAt: "2026-03-04T10:00:00Z", rMultiple: 2.4, editedAfterPublish: true });
    expect(screen.getByText("Exit 2 reached")).toBeInTheDocument();
    expect(screen.getByText("+2.40 R")).toHaveClass("text-emerald-600");
    expect(screen.getByText("Edited after publishing")).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Alex Morgan" })).toHaveAttribute("href", "/customer/educators/alex-morgan");
  });

  it("shows a manual close and a loss in red", () => {
    renderCard({ ...idea, status: "unsuccessful", completed: true, outcome: "manual", closePrice: "1.0921", closedAt: "2026-03-04T10:00:00Z", rMultiple: -0.25 });
    expect(screen.getByText("Closed at 1.0921")).toBeInTheDocument();
    expect(screen.getByText("−0.25 R")).toHaveClass("text-rose-600");
  });

  it("says which setup the idea is and why, under the levels, as text", () => {
    renderCard();
    const card = screen.getByRole("article", { name: "EUR/USD trade idea" });
    expect(within(card).getByText("Breakout retest")).toBeInTheDocument();
    const why = within(card).getByText("Why:").parentElement;
    expect(why).toHaveTextContent("Why: Retest of the weekly level <b>held</b>.");
    expect(card.querySelector("b")).toBeNull();
  });

  it("shows no setup or reason line when the idea names none", () => {
    renderCard({ ...idea, setupId: null, setupName: null, reason: null });
    expect(screen.queryByText("Why:")).toBeNull();
    expect(screen.queryByText(/Setup:/)).toBeNull();
  });

  it("renders notes containing HTML as text", () => {
    const { container } = renderCard();
    expect(screen.getByText('<img src=x onerror="alert(1)"><b>bold</b>')).toBeInTheDocument();
    expect(container.querySelector("b")).toBeNull();
    expect(container.querySelector("img")).toBeNull();
  });

  it("copies a level to the clipboard, toasts and shows a check for 2 s", async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    renderCard();
    const button = screen.getByRole("button", { name: "Copy Entry 1" });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith("100");
    expect(await screen.findByText("Entry 1 copied to clipboard.")).toBeInTheDocument();
    expect(within(button).getByTestId("copied-icon")).toBeInTheDocument();
    await act(async () => {
      vi.advanceTimersByTime(2100);
    });
    expect(within(button).queryByTestId("copied-icon")).not.toBeInTheDocument();
  });

  it("shows the price check in one line, marks a verdict that differs, and opens its receipts", async () => {
    renderCard({
      ...idea,
      status: "successful",
      outcome: "exit1",
      rMultiple: 1,
      verification: {
        state: "settled", outcome: "invalidation", rMultiple: -1, settlementPrice: "90", triggeredAt: "2026-01-01T10:00:00Z",
        settledAt: "2026-01-01T11:00:00Z", maeR: -1, mfeR: 0.4, feed: "binance", symbol: "BTCUSDT", reason: null, detail: null, agrees: false,
        receipts: [
          { step: "triggered", at: "2026-01-01T10:00:00Z", granularity: "1m", candleTime: "2026-01-01T10:00:00Z", open: "99", high: "101", low: "98", close: "100", side: null, price: "100" },
          { step: "stop", at: "2026-01-01T11:00:00Z", granularity: "1m", candleTime: "2026-01-01T11:00:00Z", open: "91", high: "92", low: "89", close: "90", side: null, price: "90" },
        ],
      },
    });
    expect(screen.getByText("Differs from the educator's call")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Price check: Stopped at invalidation −1.00 R" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText("BTCUSDT")).toBeInTheDocument();
    expect(within(within(dialog).getByRole("list", { name: "Receipts" })).getAllByRole("listitem")).toHaveLength(2);
    // The educator's call beside the price check, why they differ, and where the record is proven.
    const both = within(dialog).getByLabelText("Educator's call and price check");
    expect(both).toHaveTextContent("Educator's callExit 1 reached +1.00 RPrice checkStopped at invalidation −1.00 R");
    expect(within(dialog).getByText(/^They differ because the market's candles reached another level first/)).toBeInTheDocument();
    expect(within(dialog).getByRole("link", { name: "How we keep the record honest" })).toHaveAttribute("href", "/proof");
  });

  it("explains what a price check is one tap from the card", () => {
    renderCard();
    const explain = screen.getByRole("button", { name: "What is a price check?" });
    expect(screen.queryByText(/We settle every idea from market prices as well/)).not.toBeInTheDocument();
    fireEvent.click(explain);
    expect(
      screen.getByText("We settle every idea from market prices as well, so you can compare the educator's call with what the market did."),
    ).toBeInTheDocument();
    expect(explain).toHaveAttribute("aria-expanded", "true");
  });

  it("shows what members who took the idea got, and nothing while the server sends no figures", () => {
    const { unmount } = renderCard({ ...idea, taken: { count: 5, averageEntrySlippageR: -0.2, averageRealisedR: 1.1 } });
    expect(screen.getByText("Taken by 5 members · median slippage −0.20 R · median realised +1.10 R")).toBeInTheDocument();
    unmount();
    renderCard({ ...idea, taken: { count: 7, averageEntrySlippageR: 0, averageRealisedR: null } });
    expect(screen.getByText("Taken by 7 members · median slippage 0.00 R")).toBeInTheDocument();
  });

  it("shows no taken line under the threshold (taken is null)", () => {
    renderCard();
    expect(screen.queryByText(/Taken by/)).not.toBeInTheDocument();
  });

  it("shows an invalidated idea as INVALID with the broken-level note", () => {
    renderCard({ ...idea, status: "invalidated", orderType: "SELL", isNew: false });
    expect(screen.getByText("INVALID")).toBeInTheDocument();
    expect(screen.getByText("Price broke above the invalidation level (90).")).toBeInTheDocument();
    expect(screen.getByText("Bearish")).toBeInTheDocument();
  });

  it("tries the next image URL when one fails, then hides the chart", async () => {
    renderCard({ ...idea, imageUrls: ["/media/a.jpg", "/media/b.jpg"] });
    const img = () => screen.queryByRole("img", { name: "EUR/USD chart" });
    // Asked for once the browser is idle after the card mounted (ChartImage).
    expect(await screen.findByRole("img", { name: "EUR/USD chart" })).toHaveAttribute("src", "/media/a.jpg");
    fireEvent.error(img()!);
    expect(img()).toHaveAttribute("src", "/media/b.jpg");
    fireEvent.error(img()!);
    expect(img()).toBeNull();
  });
});

describe("IdeaCard numbers and the one R rule", () => {
  it("writes levels at the pair's precision with thousands separators, and copies them as typed", () => {
    renderCard({ ...idea, pair: "BTCUSDT", entry1: "64200", invalidationLevel: "62000.5", exit1: "66543", exit2: null });
    expect(screen.getByText("64,200.0")).toBeInTheDocument();
    expect(screen.getByText("66,543.0")).toBeInTheDocument();
    expect(screen.getByText("62,000.5")).toBeInTheDocument();
  });

  it("measures the R:R badge from the average of two entries and says so on the card", () => {
    renderCard({ ...idea, entry1: "1.0850", entry2: "1.0830", invalidationLevel: "1.0795", exit1: "1.0910", exit2: null });
    expect(screen.getByText("R:R 1:1.56")).toBeInTheDocument();
    expect(screen.getByText("R is measured from the average of Entry 1 and Entry 2 (1.0840).")).toBeInTheDocument();
  });

  it("states no rule with one entry", () => {
    renderCard();
    expect(screen.getByText("R:R 1:2.5")).toBeInTheDocument();
    expect(screen.queryByText(/R is measured from/)).not.toBeInTheDocument();
  });
});
