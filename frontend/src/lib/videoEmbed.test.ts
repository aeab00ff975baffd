import { describe, expect, it } from "vitest";
import { videoTarget } from "./videoEmbed";

describe("videoTarget", () => {
  it.each([
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ?t=42", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://m.youtube.com/shorts/dQw4w9WgXcQ", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ"],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://vimeo.com/76979871/abc123", "https://player.vimeo.com/video/76979871?h=abc123"],
  ])("embeds %s", (link, src) => expect(videoTarget(link)).toMatchObject({ kind: "embed", src }));

  it("opens other https links in a new tab", () => {
    expect(videoTarget("https://example.com/talk.mp4")).toEqual({ kind: "link", href: "https://example.com/talk.mp4" });
  });

  it.each([["javascript:alert(1)"], ["http://youtube.com/watch?v=dQw4w9WgXcQ"], ["not a link"], [null], ["https://www.youtube.com/watch?v=bad"]])(
    "never embeds or links %s unsafely",
    (link) => {
      const target = videoTarget(link);
      expect(target === null || target.kind === "link").toBe(true);
      if (target?.kind === "link") expect(target.href.startsWith("https://")).toBe(true);
    },
  );
});
