import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach, vi } from "vitest";

afterEach(() => {
  cleanup();
});

// Lazy routes and the first render of a page compile and load modules on demand: on a busy CI machine
// that takes seconds, so waiting for what a user would see gets more than the default second.
configure({ asyncUtilTimeout: 10_000 });

// jsdom does not implement these.
window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
if (!window.matchMedia) {
  window.matchMedia = ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

// Node's Request (unlike a browser's) rejects relative URLs such as "/api/config";
// resolve them against the jsdom location as a browser would.
const NodeRequest = globalThis.Request;
class BrowserLikeRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, window.location.href) : input, init);
  }
}
globalThis.Request = BrowserLikeRequest as typeof Request;
