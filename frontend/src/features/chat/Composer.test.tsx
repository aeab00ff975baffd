import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { Composer, type ComposedMessage } from "./Composer";

function setup(onSend = vi.fn(async (_m: ComposedMessage) => {})) {
  render(<Composer onSend={onSend} />);
  return { onSend, user: userEvent.setup(), box: screen.getByLabelText("Message") };
}

describe("Composer", () => {
  it("sends on Enter and clears the input", async () => {
    const { onSend, user, box } = setup();
    await user.type(box, "Buy the dip{Enter}");
    expect(onSend).toHaveBeenCalledWith({ text: "Buy the dip", file: null });
    await waitFor(() => expect(box).toHaveValue(""));
  });

  it("adds a line on Shift+Enter without sending", async () => {
    const { onSend, user, box } = setup();
    await user.type(box, "line one{Shift>}{Enter}{/Shift}line two");
    expect(onSend).not.toHaveBeenCalled();
    expect(box).toHaveValue("line one\nline two");
    await user.click(screen.getByRole("button", { name: "Send message" }));
    expect(onSend).toHaveBeenCalledWith({ text: "line one\nline two", file: null });
  });

  it("does not send blank text", async () => {
    const { onSend, user, box } = setup();
    await user.type(box, "   {Enter}");
    expect(onSend).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Send message" })).toBeDisabled();
  });

  it("sends an image alone and refuses non-images", async () => {
    const createObjectURL = vi.fn(() => "blob:preview");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { onSend, user } = setup();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(["x"], "notes.txt", { type: "text/plain" }));
    expect(screen.queryByAltText("Attached image preview")).not.toBeInTheDocument();
    const png = new File(["png"], "chart.png", { type: "image/png" });
    await user.upload(input, png);
    expect(screen.getByAltText("Attached image preview")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Send message" }));
    expect(onSend).toHaveBeenCalledWith({ text: "", file: png });
    vi.unstubAllGlobals();
  });

  it("keeps the text when sending fails", async () => {
    const { user, box } = setup(vi.fn(async () => Promise.reject(new Error("nope"))));
    await user.type(box, "keep me{Enter}");
    await waitFor(() => expect(screen.getByRole("button", { name: "Send message" })).toBeEnabled());
    expect(box).toHaveValue("keep me");
  });
});
