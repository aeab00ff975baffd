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

function Sized() {
  return <PositionSizePanel pair={cross.pair} sizing={useSizing(cross)} />;
}

function renderPanel(feed: ConversionRate) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(deskKeys.riskSettings, { accountSize: 10000, accountCurrency: "USD", riskPercent: 1, leverage: 1 });
  client.setQueryData(conversionRateQueryOptions("JPY", "USD").queryKey, feed);
  render(
    <QueryClientProvider client={client}>
      <Sized />
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByRole("button", { name: /Position size/ }));
}

afterEach(() => localStorage.clear());

describe("position size for a cross", () => {
  it("uses the price feed's latest rate when the feed has one, and says so", () => {
    renderPanel({ from: "JPY", to: "USD", rate: "0.0064", asOf: new Date().toISOString(), feed: "oanda" });
    expect(screen.getByLabelText("JPY → USD rate")).toHaveValue("0.0064");
    expect(screen.getByText(/From the price feed/)).toBeInTheDocument();
    expect(screen.queryByText(NEEDS_RATE)).not.toBeInTheDocument();
  });

  it("asks for the rate when the feed has none, and a typed rate replaces the feed's", () => {
    renderPanel({ from: "JPY", to: "USD", rate: null, asOf: null, feed: null });
    const input = screen.getByLabelText("JPY → USD rate");
    expect(input).toHaveValue("");
    expect(screen.getByText(NEEDS_RATE)).toBeInTheDocument();
    fireEvent.change(input, { target: { value: "0.0066" } });
    expect(screen.queryByText(NEEDS_RATE)).not.toBeInTheDocument();
    expect(screen.queryByText(/From the price feed/)).not.toBeInTheDocument();
  });
});
