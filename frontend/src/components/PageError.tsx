import { RefreshCw } from "lucide-react";
import { Button } from "./Button";
import { ThemeToggle } from "./ThemeToggle";

/**
 * What a screen shows instead of going blank when it fails to render, most often because its code could not
 * be downloaded (offline, or an update replaced the files this tab was about to load): reloading fetches the
 * current version.
 */
export function PageError() {
  return (
    <main className="relative flex min-h-dvh flex-col items-center justify-center gap-4 bg-surface px-6 text-center">
      <ThemeToggle className="absolute right-4 top-4" />
      <div role="alert" className="space-y-2">
        <h1 className="text-2xl font-bold text-fg">This page could not be shown</h1>
        <p className="max-w-sm text-muted">Check your connection and reload the page.</p>
      </div>
      <Button onClick={() => window.location.reload()}>
        <RefreshCw className="h-4 w-4" aria-hidden="true" />
        Reload
      </Button>
    </main>
  );
}
