import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { Suspense, lazy, useState, useSyncExternalStore, type ReactNode } from "react";
import { subscribeToToastRequests, toastRequested } from "../lib/notify";
import { afterRestore } from "./offlineWrites";
import { persistOptions } from "./persist";
import { createQueryClient } from "./queryClient";

function subscribeToThemeClass(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  return () => observer.disconnect();
}

function useHtmlTheme(): "dark" | "light" {
  return useSyncExternalStore(
    subscribeToThemeClass,
    () => (document.documentElement.classList.contains("dark") ? "dark" : "light"),
    () => "dark",
  );
}

/** Mounted, and fetched, with the first toast (lib/notify): toasts are never part of a first paint. */
const Toaster = lazy(async () => ({ default: (await import("sonner")).Toaster }));

const DESKTOP_QUERY = "(min-width: 640px)";

function subscribeToWidth(onChange: () => void) {
  const query = window.matchMedia(DESKTOP_QUERY);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Toasts sit away from the header: bottom-centre on phones, bottom-right on wider screens. */
function useToastPosition(): "bottom-center" | "bottom-right" {
  return useSyncExternalStore(
    subscribeToWidth,
    () => (window.matchMedia(DESKTOP_QUERY).matches ? "bottom-right" : "bottom-center"),
    () => "bottom-center",
  );
}

/**
 * `persist`: the app keeps its query cache and paused writes in IndexedDB (restored before queries run, written as
 * they change), then sends restored writes and refreshes restored answers (app/offlineWrites.ts); tests leave it off.
 */
export function Providers({ children, client, persist = false }: { children: ReactNode; client?: QueryClient; persist?: boolean }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const theme = useHtmlTheme();
  const position = useToastPosition();
  const toasting = useSyncExternalStore(subscribeToToastRequests, toastRequested, () => false);
  const content = (
    <>
      {children}
      {toasting ? (
        <Suspense fallback={null}>
          <Toaster theme={theme} visibleToasts={1} duration={5000} richColors position={position} closeButton />
        </Suspense>
      ) : null}
    </>
  );
  return persist ? (
    <PersistQueryClientProvider client={queryClient} persistOptions={persistOptions} onSuccess={() => afterRestore(queryClient)}>
      {content}
    </PersistQueryClientProvider>
  ) : (
    <QueryClientProvider client={queryClient}>{content}</QueryClientProvider>
  );
}
