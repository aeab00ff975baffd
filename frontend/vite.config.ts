/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { VitePWA } from "vite-plugin-pwa";
import { compression } from "vite-plugin-compression2";
import { fileURLToPath } from "node:url";

const backend = "http://127.0.0.1:8000";

/**
 * Modules every signed-in screen builds on (see `codeSplitting` below); screen-specific libraries stay out, and so
 * do the open dialogs and menus (`src/components/overlays`).
 */
const SHARED_MODULES =
  /src[\\/](components(?![\\/]overlays[\\/])|lib|api)[\\/]|node_modules[\\/](lucide-react|embla-carousel|embla-carousel-react|@tanstack|openapi-fetch)[\\/]/;

/**
 * Open dialogs, menus, popovers and tabs: Radix with what it builds on. No first paint needs them; `Dialog` and
 * `Menu` load them when someone reaches for a trigger (decision 0045). The parts of Radix that the shared switch
 * uses are pulled into the shared chunk, which is captured first.
 */
const OVERLAY_MODULES =
  /src[\\/]components[\\/]overlays[\\/]|node_modules[\\/](@radix-ui|@floating-ui|aria-hidden|react-remove-scroll|react-remove-scroll-bar|use-callback-ref|use-sidecar|tslib|get-nonce|detect-node-es|react-style-singleton)[\\/]/;

export default defineConfig(({ mode }) => ({
  resolve: {
    // React Router's package exports only its development build (dev warnings switched on); its
    // production build is the same code with them off, so production bundles use that one.
    alias:
      mode === "production"
        ? [{ find: /^react-router$/, replacement: fileURLToPath(new URL("node_modules/react-router/dist/production/index.mjs", import.meta.url)) }]
        : [],
  },
  plugins: [
    react(),
    tailwindcss(),
    // The service worker is our own src/sw.ts (push handlers, offline ideas), emitted as /sw.js;
    // main.tsx registers it, so nothing is injected into index.html (CSP: no inline scripts).
    VitePWA({
      strategies: "injectManifest",
      srcDir: "src",
      filename: "sw.ts",
      injectRegister: false,
      registerType: "autoUpdate",
      manifestFilename: "manifest.webmanifest",
      includeAssets: ["favicon.svg"],
      injectManifest: {
        // A classic script: the "es" format builds it with Rollup's deprecated inlineDynamicImports.
        rollupFormat: "iife",
        globPatterns: ["**/*.{js,css,html,svg,png,ico,webmanifest}"],
        globIgnores: ["icons/maskable-512.png"],
      },
      manifest: {
        id: "/",
        name: "Trade Ideas",
        short_name: "Trade Ideas",
        description: "Educational trade ideas for Forex and Crypto from our educators.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        background_color: "#020617",
        theme_color: "#020617",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      devOptions: { enabled: false },
    }),
    // The manifest is linked by the app (features/pwa/installPrompt.ts `linkManifest`), after a market page's first
    // paint rather than with the HTML (decision 0064), so the link the PWA plugin writes into index.html goes.
    {
      name: "manifest-linked-by-the-app",
      apply: "build",
      enforce: "post",
      transformIndexHtml: { order: "post", handler: (html: string) => html.replace(/<link rel="manifest"[^>]*>/, "") },
    },
    // .br and .gz beside every text asset, made once at build time; the server picks one per request.
    compression({ algorithms: ["brotliCompress", "gzip"], threshold: 1024 }),
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React changes least often: its own long-cached chunk.
            { name: "react", test: /node_modules[\\/](react|react-dom|react-router|scheduler|cookie)[\\/]/, priority: 6 },
            // What the first route runs stays in its own chunks (the 120 KB budget), so the group
            // below never pulls the login page's modules into a chunk the login page would then load.
            { name: "index", tags: ["$initial"], priority: 5 },
            // The shared building blocks of the signed-in screens (UI primitives, pure helpers, the API
            // client, the carousel, icons) in one chunk instead of ~30 of 1-2 KB: phones on HTTP/1.1 fetch
            // six files at a time, so a screen made of many tiny chunks waits several round trips before it
            // can render (decision 0039). Screens and their features stay split, so customers never
            // download the educator or admin screens.
            { name: "shared", test: SHARED_MODULES, priority: 4 },
            // Open dialogs and menus: fetched when someone reaches for one (decision 0045).
            { name: "overlays", test: OVERLAY_MODULES, priority: 3 },
            // What every signed-in page runs beside its screen (the live stream, the push prompt, each
            // feature's event handlers), with the small modules it shares with screens: one file instead of
            // five.
            { name: "SignedIn", test: /src[\\/]app[\\/]SignedIn\.tsx$/, priority: 2 },
            // A customer's market page, the desk on its cards and the notification settings in its header,
            // with the small modules they share with other screens (the idea card, the list states, the
            // counts, the journal): one file instead of nine, the most common first screen. Other screens that use those modules load it too.
            // (Both groups keep their screen's name: e2e/test_quality reads file names to check that
            // customers never download educator screens.)
            { name: "MarketDashboardPage", test: /src[\\/]features[\\/](ideas[\\/]list[\\/]MarketDashboardPage|desk[\\/]DeskExtras|notifications[\\/]NotificationSettingsDialog)\.tsx$/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/api": { target: backend, changeOrigin: false },
      "/media": { target: backend, changeOrigin: false },
    },
  },
  test: {
    environment: "jsdom",
    globals: false,
    setupFiles: ["./src/test/setup.ts"],
    css: false,
    include: ["src/**/*.test.{ts,tsx}"],
    // See src/test/setup.ts: a loaded machine must not turn slow module loading into failures.
    testTimeout: 30_000,
  },
}));
