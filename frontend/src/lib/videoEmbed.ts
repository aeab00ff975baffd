/**
 * Where a video link plays: YouTube and Vimeo links as an embedded player (privacy-enhanced YouTube
 * domain), any other https link in a new tab, anything else not at all.
 */
export type VideoTarget = { kind: "embed"; src: string; provider: "YouTube" | "Vimeo" } | { kind: "link"; href: string } | null;

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

export function videoTarget(link: string | null | undefined): VideoTarget {
  if (!link) return null;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  const host = url.hostname.replace(/^(www|m)\./, "");
  let youtube: string | null = null;
  if (host === "youtu.be") youtube = url.pathname.slice(1).split("/")[0] ?? null;
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (url.pathname === "/watch") youtube = url.searchParams.get("v");
    else {
      const m = /^\/(embed|shorts|live)\/([^/]+)/.exec(url.pathname);
      youtube = m?.[2] ?? null;
    }
  }
  if (youtube && YOUTUBE_ID.test(youtube)) {
    return { kind: "embed", provider: "YouTube", src: `https://www.youtube-nocookie.com/embed/${youtube}` };
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const m = /^\/(?:video\/)?(\d+)(?:\/([0-9a-f]+))?/.exec(url.pathname);
    if (m) {
      const hash = m[2] ? `?h=${m[2]}` : "";
      return { kind: "embed", provider: "Vimeo", src: `https://player.vimeo.com/video/${m[1]}${hash}` };
    }
  }
  return { kind: "link", href: url.href };
}
