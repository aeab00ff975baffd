import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { NEEDS_RATE } from "../../lib/positionSize";
import { PositionSizePanel } from "./PositionSizePanel";
import { deskKeys, type Idea } from "./types";
import { conversionRateQueryOptions, type ConversionRate } from "./useConversionRate";
import { useSizing } from "./useSizing";

const cross = {
  id: 9,
  pair: "GBP/JPY",
  market: "forex",
  orderType: "BUY",
  ideaType: "Leverage",
  entry1: "190.00",
  entry2: null,
  invalidationLevel: "189.00",
  exit1: "192.00",
} as Idea;

function Sized({ idea }: { idea: Idea }) {
  return <PositionSizePanel pair={idea.pair} sizing={useSizing(idea)} />;
}

function renderPanel(feed: ConversionRate | null, idea: Idea = cross, leverage = 1) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(deskKeys.riskSettings, { accountSize: 10000, accountCurrency: "USD", riskPercent: 1, leverage });
  if (feed) client.setQueryData(conversionRateQueryOptions("JPY", "USD").queryKey, feed);
  render(
    <QueryClientProvider client={client}>
      <Sized idea={idea} />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: /Position size/ }));
}

afterEach(() => localStorage.clear());

describe("position size for a cross", () => {
  it("uses the price feed's latest rate when the feed has one, and says so", () => {
    renderPanel({ from: "JPY", to: "USD", rate: "0.0064", asOf: new Date().toISOString(), feed: "oanda" });
    expect(screen.getByLabelText("JPY → USD rate")).toHaveValue("0.0064");
    expect(screen.getByText(/From the last price check's prices/)).toBeInTheDocument();
    expect(screen.queryByText(NEEDS_RATE)).not.toBeInTheDocument();
  });

  it("asks for the rate when the feed has none, and a typed rate replaces the feed's", () => {
    renderPanel({ from: "JPY", to: "USD", rate: null, asOf: null, feed: null });
    const input = screen.getByLabelText("JPY → USD rate");
    expect(input).toHaveValue("");
    expect(screen.getByText(NEEDS_RATE)).toBeInTheDocument();
    fireEvent.change(input, { target: { value: "0.0066" } });
    expect(screen.queryByText(NEEDS_RATE)).not.toBeInTheDocument();
    expect(screen.queryByText(/From the last price check's prices/)).not.toBeInTheDocument();
  });
});

const eurusd = {
  id: 10,
  pair: "EUR/USD",
  market: "forex",
  orderType: "BUY",
  ideaType: "Leverage",
  entry1: "1.0850",
  entry2: "1.0830",
  invalidationLevel: "1.0795",
  exit1: "1.0910",
  exit2: null,
  exit3: null,
} as Idea;

describe("position size with leverage and two entries", () => {
  it("gives the margin at the account's leverage and warns when the account cannot hold the notional", () => {
    renderPanel(null, { ...eurusd, entry2: null, invalidationLevel: "1.0841" });
    expect(screen.getByText("Margin at 1×")).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent(/needs 120,\d{3}\.\d\d USD of margin at 1×, more than your 10,000\.00 USD account/);
  });

  it("has no warning when the leverage covers the notional", () => {
    renderPanel(null, { ...eurusd, entry2: null, invalidationLevel: "1.0841" }, 30);
    expect(screen.getByText("Margin at 30×")).toBeInTheDocument();
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("measures R from the average entry, as the card's R:R badge does", () => {
    renderPanel(null, eurusd, 30);
    expect(screen.getByText("R is measured from the average of Entry 1 and Entry 2 (1.0840).")).toBeInTheDocument();
    expect(screen.getByRole("row", { name: /TP1 1.0910/ })).toHaveTextContent("+1.56 R");
  });
});
