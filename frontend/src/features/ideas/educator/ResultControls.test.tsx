import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ResultControls } from "./ResultControls";
import type { Idea } from "../api/types";

const open = {
  id: 3, pair: "BTCUSDT", status: "active", entry1: "60000", entry2: null, invalidationLevel: "59000", exit1: "62000",
  exit2: null, exit3: null, outcome: null,
  verification: {
    agrees: null, detail: null, feed: "binance", maeR: null, mfeR: null, outcome: "exit1", rMultiple: 2, reason: null,
    receipts: [], settledAt: null, settlementPrice: "62000", state: "settled", symbol: "BTCUSDT", triggeredAt: null,
  },
} as unknown as Idea;

describe("ResultControls", () => {
  it("offers only the possible changes of an open idea", () => {
    render(<ResultControls idea={open} busy={false} onChange={vi.fn()} />);
    expect(screen.getByRole("button", { name: "Successful" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Unsuccessful" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Invalid" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
  });

  it("asks once before recording what the price check contradicts, and records on the answer", () => {
    const onChange = vi.fn();
    render(<ResultControls idea={open} busy={false} onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Invalid" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("The price check says the idea reached Exit 1. Record Invalid anyway?");
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Record anyway" }));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith("invalidated", {});
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  });

  it("records at once when the check agrees or there is none", () => {
    const onChange = vi.fn();
    render(<ResultControls idea={{ ...open, verification: null }} busy={false} onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Invalid" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(onChange).toHaveBeenCalledWith("invalidated", {});
  });
});
