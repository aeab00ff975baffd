import { describe, expect, it } from "vitest";
import { canSend, composeMessage, IMAGE_ONLY_TEXT, isSendKey } from "./chatComposer";

describe("composeMessage", () => {
  it("needs non-empty trimmed text or an image", () => {
    expect(composeMessage("", null)).toBeNull();
    expect(composeMessage("   \n\t ", undefined)).toBeNull();
  });

  it("sends trimmed text", () => {
    expect(composeMessage("  EUR/USD looks strong \n", null)).toEqual({ message: "EUR/USD looks strong" });
  });

  it("gives an image alone the text 'Shared an image'", () => {
    expect(IMAGE_ONLY_TEXT).toBe("Shared an image");
    expect(composeMessage("", 7)).toEqual({ message: "Shared an image", imageId: 7 });
    expect(composeMessage("   ", 7)).toEqual({ message: "Shared an image", imageId: 7 });
  });

  it("keeps the text with an image", () => {
    expect(composeMessage(" chart ", 3)).toEqual({ message: "chart", imageId: 3 });
  });
});

describe("canSend", () => {
  it.each([
    ["", false, false],
    ["  ", false, false],
    ["hi", false, true],
    ["", true, true],
    ["  ", true, true],
  ])("%j with image=%s -> %s", (text, hasImage, expected) => {
    expect(canSend(text, hasImage)).toBe(expected);
  });
});

describe("isSendKey", () => {
  it("Enter sends", () => {
    expect(isSendKey({ key: "Enter", shiftKey: false })).toBe(true);
  });
  it("Shift+Enter adds a line", () => {
    expect(isSendKey({ key: "Enter", shiftKey: true })).toBe(false);
  });
  it("Enter while an IME is composing does not send", () => {
    expect(isSendKey({ key: "Enter", shiftKey: false, nativeEvent: { isComposing: true } })).toBe(false);
    expect(isSendKey({ key: "Enter", shiftKey: false, isComposing: true })).toBe(false);
  });
  it("other keys do not send", () => {
    expect(isSendKey({ key: "a", shiftKey: false })).toBe(false);
  });
});
