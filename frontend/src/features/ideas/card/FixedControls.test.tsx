import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { EducatorIdeaCard } from "../educator/EducatorIdeaCard";
import { IdeaForm } from "../form/IdeaForm";
import { MyIdeaActions } from "../educator/MyIdeaActions";
import type { Idea } from "../api/types";

const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

function loss(recordedAgoMs: number): Idea {
  const closedAt = at(-recordedAgoMs);
  return {
    id: 9, educatorId: 1, educatorName: "Alex Morgan", educatorImage: null, educatorSlug: "alex-morgan", specialty: null,
    pair: "EUR/USD", timeFrame: "4H", orderType: "BUY", ideaType: "Leverage", marketType: "Forex", market: "forex",
    entry1: "1.1000", entry2: null, invalidationLevel: "1.0900", exit1: "1.1200", exit2: null, exit3: null, notes: null, setupId: null, setupName: null, reason: null,
    status: "unsuccessful", completed: true, imageIds: [], imageUrls: [], imageFullUrls: [], chartUrl: null, videoUrl: null,
    audioUrl: null, createdAt: at(-3 * 24 * 60 * MINUTE), updatedAt: closedAt, edited: true, editedAfterPublish: false,
    outcome: "invalidation", closePrice: null, closedAt, rMultiple: -1, lesson: null, isNew: null, verification: null, taken: null,
    identityFixedAt: at(-3 * 24 * 60 * MINUTE + 15 * MINUTE), resultFixedAt: at(-recordedAgoMs + 15 * MINUTE),
  };
}

function show(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const FIXED = "This idea's result is part of the track record and can no longer be changed.";

describe("an educator's controls follow the record's windows", () => {
  afterEach(() => vi.useRealTimers());

  it("offers no status buttons on a result recorded three days ago, and says why", () => {
    show(<EducatorIdeaCard idea={loss(3 * 24 * 60 * MINUTE)} onEdit={() => undefined} />);
    expect(screen.getByRole("note")).toHaveTextContent(FIXED);
    for (const name of ["Successful", "Unsuccessful", "Invalid", "Reset"]) {
      expect(screen.queryByRole("button", { name })).not.toBeInTheDocument();
    }
    // Levels and notes stay editable; deleting is disabled and says why (a recorded result stays in the record).
    expect(screen.getByLabelText("Exit 1")).toBeEnabled();
    const remove = screen.getByRole("button", { name: "Delete trade idea" });
    expect(remove).toHaveAttribute("aria-disabled", "true");
    expect(remove).toHaveAttribute("title", "Completed ideas are part of the track record and cannot be deleted.");
  });

  it("offers corrections until 15 minutes after recording, then takes them away", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    show(<EducatorIdeaCard idea={loss(5 * MINUTE)} onEdit={() => undefined} />);
    expect(screen.getByRole("button", { name: "Reset" })).toBeEnabled();
    expect(screen.getByText(/You can correct this result until/)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(10 * MINUTE + 100));
    expect(screen.queryByRole("button", { name: "Reset" })).not.toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent(FIXED);
  });

  it("My Trade Ideas shows the same: grading within the window, the reason after it", () => {
    const { unmount } = show(<MyIdeaActions idea={loss(5 * MINUTE)} />);
    // The same words as the dashboard, and only the changes possible from "unsuccessful".
    expect(screen.getByRole("button", { name: "Successful" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Reset" })).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Unsuccessful" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^(Success|Failed)$/ })).not.toBeInTheDocument();
    expect(screen.getByText(/You can correct this result until \d\d:\d\d UTC today \(\d+ min\)\./)).toBeInTheDocument();
    unmount();
    show(<MyIdeaActions idea={loss(20 * MINUTE)} />);
    expect(screen.queryByRole("button", { name: "Successful" })).not.toBeInTheDocument();
    expect(screen.getByRole("note")).toHaveTextContent(FIXED);
    expect(screen.getByRole("link", { name: "Edit EUR/USD trade idea" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Delete EUR/USD trade idea" })).toHaveAttribute("aria-disabled", "true");
  });

  it("the edit form fixes market, pair, direction, type and time frame of a published idea, not its levels", () => {
    show(<IdeaForm educatorId={1} editing={loss(3 * 24 * 60 * MINUTE)} />);
    expect(screen.getByRole("note")).toHaveTextContent(
      "This idea is published: its market, pair, direction, type, time frame, setup and reason can no longer be changed.",
    );
    for (const name of ["Forex", "Bullish", "Leverage"]) expect(screen.getByRole("radio", { name })).toBeDisabled();
    expect(screen.getByLabelText("Pair", { exact: false })).toBeDisabled();
    expect(screen.getByLabelText("Time Frame", { exact: false })).toBeDisabled();
    expect(screen.getByLabelText("Exit 1", { exact: false })).toBeEnabled();
    expect(screen.getByLabelText("Notes")).toBeEnabled();
  });

  it("within the first 15 minutes every field of the form can be corrected", () => {
    show(<IdeaForm educatorId={1} editing={{ ...loss(MINUTE), identityFixedAt: at(10 * MINUTE) }} />);
    expect(screen.queryByRole("note")).not.toBeInTheDocument();
    expect(screen.getByLabelText("Pair", { exact: false })).toBeEnabled();
    expect(screen.getByRole("radio", { name: "Forex" })).toBeEnabled();
  });
});
