import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { planReplay, type ReplayPlan } from "./replay";
import { ReplayControls } from "./ReplayControls";
import { useReplay } from "./useReplay";

// A BUY of EUR/USD at 1.0850, stop 1.0795 (1 R = 0.0055), exits 1.0910 and 1.0960; published 10:00, triggered in the
// 10:02 candle, exit 2 in the 10:04 candle. The candle before publishing is the chart's context, not replayed.
const minute = (m: number) => Date.parse("2026-11-20T10:00:00Z") / 1000 + 60 * m;
const at = (m: number) => new Date(minute(m) * 1000).toISOString();
const candles = [
  [-1, 1.084, 1.0845, 1.0835, 1.084],
  [0, 1.084, 1.0846, 1.0838, 1.0845],
  [1, 1.0845, 1.0848, 1.0842, 1.0846],
  [2, 1.0846, 1.0855, 1.0845, 1.0852],
  [3, 1.0852, 1.0925, 1.0823, 1.092],
  [4, 1.092, 1.0962, 1.0915, 1.096],
].map(([m, open, high, low, close]) => ({ time: minute(m!), open: open!, high: high!, low: low!, close: close! }));
const plan = planReplay(
  {
    orderType: "BUY", entry1: "1.0850", entry2: null, invalidationLevel: "1.0795", exit1: "1.0910", exit2: "1.0960", exit3: null,
    createdAt: at(0),
    verification: {
      state: "settled", settledAt: at(4), mfeR: 2.02, maeR: -0.5,
      receipts: [
        { step: "triggered", candleTime: at(2), price: "1.0850" },
        { step: "exit1", candleTime: at(4), price: "1.0910" },
        { step: "exit2", candleTime: at(4), price: "1.0960" },
      ],
    },
  },
  candles,
)!;

function Harness({ plan }: { plan: ReplayPlan }) {
  return <ReplayControls plan={plan} replay={useReplay(plan)} />;
}

const status = () => screen.getByRole("status");
const best = () => screen.getAllByRole("definition")[0]!;
const worst = () => screen.getAllByRole("definition")[1]!;

describe("ReplayControls", () => {
  afterEach(() => vi.useRealTimers());

  it("opens on the whole trade with the price check's figures", () => {
    render(<Harness plan={plan} />);
    expect(screen.getByLabelText("Replay position")).toHaveAttribute("aria-valuetext", "Candle 5 of 5 · 10:04 UTC");
    expect(status()).toHaveTextContent("Candle 5 of 5 · 10:04 UTC");
    expect(best()).toHaveTextContent("+2.02 R");
    expect(worst()).toHaveTextContent("\u22120.50 R");
    expect(screen.getByText("Exit 2 reached: candle 5, 10:04 UTC")).toBeInTheDocument();
  });

  it("scrubs and steps, with the moves so far", () => {
    render(<Harness plan={plan} />);
    fireEvent.change(screen.getByLabelText("Replay position"), { target: { value: "1" } });
    expect(status()).toHaveTextContent("Candle 1 of 5 · 10:00 UTC");
    expect(best()).toHaveTextContent("Not triggered yet");
    expect(screen.getByText("None yet.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Step back" })).toBeDisabled();
    for (let i = 0; i < 3; i += 1) fireEvent.click(screen.getByRole("button", { name: "Step forward" }));
    // The 10:03 candle, open through it: high 1.0925 is +1.36 R from 1.0850, low 1.0823 is -0.49 R.
    expect(status()).toHaveTextContent("Candle 4 of 5 · 10:03 UTC");
    expect(best()).toHaveTextContent("+1.36 R");
    expect(worst()).toHaveTextContent("\u22120.49 R");
    expect(screen.getByText("Entry triggered: candle 3, 10:02 UTC")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "Step back" }));
    expect(status()).toHaveTextContent("Candle 3 of 5 · 10:02 UTC");
    expect(best()).toHaveTextContent("0.00 R"); // the trigger candle: nothing counted yet
  });

  it("plays from the first candle at the chosen speed, says so once, and stops at the last", () => {
    vi.useFakeTimers();
    render(<Harness plan={plan} />);
    fireEvent.click(screen.getByRole("radio", { name: "1×" }));
    fireEvent.click(screen.getByRole("button", { name: "Play" }));
    expect(status()).toHaveTextContent("Playing at 1×");
    expect(screen.getByLabelText("Replay position")).toHaveValue("1");
    act(() => void vi.advanceTimersByTime(2_000));
    expect(screen.getByLabelText("Replay position")).toHaveValue("3");
    fireEvent.click(screen.getByRole("button", { name: "Pause" }));
    expect(status()).toHaveTextContent("Candle 3 of 5 · 10:02 UTC");
    fireEvent.click(screen.getByRole("button", { name: "Play" }));
    act(() => void vi.advanceTimersByTime(10_000));
    expect(status()).toHaveTextContent("Candle 5 of 5 · 10:04 UTC");
    expect(screen.getByRole("button", { name: "Play" })).toBeInTheDocument();
  });
});
