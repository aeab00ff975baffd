import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster } from "sonner";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LessonControls } from "./LessonDialog";
import { LessonBlock } from "../card/LessonBlock";
import type { Idea } from "../api/types";

const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();
const FIXED = "This idea's lesson is part of the track record and can no longer be changed.";

function loss(over: Partial<Idea> = {}): Idea {
  const closedAt = at(-60 * MINUTE);
  return {
    id: 9, educatorId: 1, educatorName: "Alex Morgan", educatorImage: null, educatorSlug: "alex-morgan", specialty: null,
    pair: "EUR/USD", timeFrame: "4H", orderType: "BUY", ideaType: "Leverage", marketType: "Forex", market: "forex",
    entry1: "1.1000", entry2: null, invalidationLevel: "1.0900", exit1: "1.1200", exit2: null, exit3: null, notes: null, setupId: null, setupName: null, reason: null,
    status: "unsuccessful", completed: true, imageIds: [], imageUrls: [], imageFullUrls: [], chartUrl: null, videoUrl: null,
    audioUrl: null, createdAt: at(-24 * 60 * MINUTE), updatedAt: closedAt, edited: false, editedAfterPublish: false,
    outcome: "invalidation", closePrice: null, closedAt, rMultiple: -1, lesson: null, isNew: null, verification: null, taken: null,
    identityFixedAt: at(-24 * 60 * MINUTE + 15 * MINUTE), resultFixedAt: at(-45 * MINUTE),
    ...over,
  };
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function show(idea: Idea) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LessonControls idea={idea} />
      <Toaster />
    </QueryClientProvider>,
  );
}

describe("the lesson after the close", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("adds a lesson from the completed idea's card through a dialog with labelled fields", async () => {
    const sent: unknown[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (req: Request) => {
        sent.push({ method: req.method, path: new URL(req.url).pathname, body: await req.json() });
        return json(loss({ lesson: { whatHappened: "Spiked on CPI.", lesson: "Skip news.", updatedAt: at(0), fixedAt: at(15 * MINUTE) } }));
      }),
    );
    show(loss());
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Add lesson" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toBeInTheDocument();
    await user.type(screen.getByLabelText("What happened"), "Spiked on CPI.");
    await user.type(screen.getByLabelText("Lesson"), "Skip news.");
    await user.click(screen.getByRole("button", { name: "Save lesson" }));
    expect(await screen.findByText("Lesson saved")).toBeInTheDocument();
    expect(sent).toEqual([{ method: "PUT", path: "/api/trade-ideas/9/lesson", body: { whatHappened: "Spiked on CPI.", lesson: "Skip news." } }]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ message: FIXED, code: "lesson_fixed" }, 409)));
    show(loss({ lesson: { whatHappened: "a", lesson: "b", updatedAt: at(-MINUTE), fixedAt: at(MINUTE) } }));
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Edit lesson" }));
    expect(screen.getByLabelText("What happened")).toHaveValue("a");
    await user.click(await screen.findByRole("button", { name: "Save lesson" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(FIXED);
  });

  it("offers nothing on an open idea, and takes the edit away once the lesson is frozen", () => {
    const { unmount } = show(loss({ status: "active", completed: false, outcome: null, closedAt: null, resultFixedAt: null }));
    expect(screen.queryByRole("button", { name: "Add lesson" })).not.toBeInTheDocument();
    unmount();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    show(loss({ lesson: { whatHappened: "a", lesson: "b", updatedAt: at(0), fixedAt: at(5 * MINUTE) } }));
    expect(screen.getByRole("button", { name: "Edit lesson" })).toBeEnabled();
    act(() => vi.advanceTimersByTime(5 * MINUTE + 100));
    expect(screen.queryByRole("button", { name: "Edit lesson" })).not.toBeInTheDocument();
    expect(screen.getByText(FIXED)).toBeInTheDocument();
  });

  it("history cards show what happened and the lesson", () => {
    render(<LessonBlock idea={loss({ lesson: { whatHappened: "Spiked on CPI.", lesson: "Skip news.", updatedAt: at(0), fixedAt: at(0) } })} />);
    const block = screen.getByRole("group", { name: "Lesson after the close" });
    expect(block).toHaveTextContent("What happened");
    expect(block).toHaveTextContent("Spiked on CPI.");
    expect(block).toHaveTextContent("Skip news.");
  });
});
