import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { useState, useSyncExternalStore, type ReactNode } from "react";
import { Toaster } from "sonner";
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

export function Providers({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  const theme = useHtmlTheme();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster theme={theme} visibleToasts={1} duration={5000} richColors position="top-center" closeButton />
    </QueryClientProvider>
  );
}
