/// <reference lib="webworker" />
/**
 * The service worker served at /sw.js (built by vite-plugin-pwa, strategy injectManifest).
 * - precaches the app shell and answers navigations with index.html (works offline);
 * - keeps the last good answer of every member read (network first), so what a member has seen stays readable
 *   offline even when the page's own cache (TanStack Query's, in IndexedDB) does not hold it;
 * - keeps images after their first view (uploads have server-chosen names and never change: cache first);
 * - shows Web Push notifications and opens/focuses their page when clicked.
 */
import { clientsClaim } from "workbox-core";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, registerRoute } from "workbox-routing";
import { ExpirationPlugin } from "workbox-expiration";
import { CacheFirst, NetworkFirst } from "workbox-strategies";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

const API_CACHE = "api-offline";
const MEDIA_CACHE = "media-offline";
const DEFAULT_ICON = "/icons/icon-192.png";
const BADGE = "/icons/badge-96.png";

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

registerRoute(
  new NavigationRoute(createHandlerBoundToURL("/index.html"), {
    denylist: [/^\/api(\/|$)/, /^\/media\//, /^\/proof\/verify_ledger\.py$/, /^\/sw\.js$/, /^\/manifest\.webmanifest$/],
  }),
);

/**
 * Reads that are not worth keeping: the event stream (never ends), health, push keys, and the operators' screens
 * (they are not read on a train, and an operator's data should not outlive the page).
 */
const NOT_KEPT = /^\/api\/(events|health|push|admin|metrics)(\/|$)/;

registerRoute(
  ({ url, request }) =>
    request.method === "GET" && url.origin === self.location.origin && url.pathname.startsWith("/api/") && !NOT_KEPT.test(url.pathname),
  new NetworkFirst({
    cacheName: API_CACHE,
    plugins: [
      {
        // Only complete successful answers are kept (never a 401 or an error body).
        cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null),
      },
    ],
  }),
);

// Chart images, avatars and chat pictures: kept after their first view (audio is streamed in ranges: not kept).
registerRoute(
  ({ url, request }) => request.method === "GET" && url.origin === self.location.origin && url.pathname.startsWith("/media/") && request.destination === "image",
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    plugins: [
      new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true }),
      { cacheWillUpdate: async ({ response }) => (response.status === 200 ? response : null) },
    ],
  }),
);

interface PushPayload {
  title?: string;
  body?: string;
  icon?: string;
  image?: string;
  badge?: string;
  url?: string;
  tag?: string;
  [key: string]: unknown;
}

function readPayload(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const value: unknown = event.data.json();
    return value && typeof value === "object" ? (value as PushPayload) : { body: String(value) };
  } catch {
    return { body: event.data.text() };
  }
}

/** Same-origin path to open; anything else falls back to the start page. */
function targetUrl(raw: unknown): string {
  try {
    const url = new URL(typeof raw === "string" && raw ? raw : "/", self.location.origin);
    return url.origin === self.location.origin ? url.href : new URL("/", self.location.origin).href;
  } catch {
    return new URL("/", self.location.origin).href;
  }
}

self.addEventListener("push", (event) => {
  const payload = readPayload(event);
  const title = payload.title || "Trade Ideas";
  const options: NotificationOptions & { image?: string } = {
    body: payload.body ?? "",
    icon: payload.icon || DEFAULT_ICON,
    badge: payload.badge || BADGE,
    data: { ...payload, url: targetUrl(payload.url) },
  };
  if (payload.image) options.image = payload.image;
  if (payload.tag) options.tag = payload.tag;
  event.waitUntil(self.registration.showNotification(title, options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const url = targetUrl(data?.url);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const exact = windows.find((client) => client.url === url);
      if (exact) {
        await exact.focus();
        return;
      }
      const any = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (any) {
        try {
          const moved = await any.navigate(url);
          await (moved ?? any).focus();
          return;
        } catch {
          // not controlled by this worker yet: open a new window instead
        }
      }
      await self.clients.openWindow(url);
    })(),
  );
});
