import { Download, Share, SquarePlus, TrendingUp, X } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Button } from "../../components/Button";
import { cn } from "../../components/cn";
import { INSTALL_DISMISSED_KEY, isDismissed, isStandalone, rememberDismissal } from "./dismissal";
import { getInstallPrompt, isIos, promptInstall, subscribeInstallPrompt } from "./installPrompt";

/**
 * Offers to install the app when the browser allows it (beforeinstallprompt), and on iPhone and iPad, where
 * Safari has no such prompt, shows the Add to Home Screen steps. Not Now hides it for 7 days; it never shows
 * inside the installed app.
 */
export function InstallBanner({ appName = "Trade Ideas" }: { appName?: string }) {
  const prompt = useSyncExternalStore(subscribeInstallPrompt, getInstallPrompt, () => null);
  const [hidden, setHidden] = useState(() => isDismissed(INSTALL_DISMISSED_KEY) || isStandalone());
  const ios = isIos();
  if ((!prompt && !ios) || hidden) return null;

  const notNow = () => {
    rememberDismissal(INSTALL_DISMISSED_KEY);
    setHidden(true);
  };

  return (
    <section
      aria-label="Install app"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-md rounded-2xl border border-line bg-card/95 p-3 shadow-2xl shadow-black/40 backdrop-blur sm:inset-x-auto sm:right-4 sm:bottom-4"
    >
      <div className={cn("flex gap-3", ios ? "items-start" : "items-center")}>
        {/* The app's mark drawn in place (as in the header), not the 7 KB icon file: nothing to download. */}
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-emerald-500/15 text-emerald-500">
          <TrendingUp className="h-5 w-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-fg">Install {appName}</p>
          {ios ? (
            <>
              <ol className="mt-1 list-decimal space-y-1 pl-5 text-sm text-fg">
                <li>
                  Tap the Share icon <Share className="inline h-4 w-4 align-text-bottom" aria-label="(a square with an arrow pointing up)" /> in Safari&apos;s toolbar.
                </li>
                <li>
                  Choose Add to Home Screen <SquarePlus className="inline h-4 w-4 align-text-bottom" aria-hidden="true" />, then Add.
                </li>
              </ol>
              <p className="mt-1.5 text-xs text-muted">On iPhone, new-idea notifications work only in the installed app (iOS 16.4 and later).</p>
            </>
          ) : (
            // One short line: the banner arrives after the page's first screen, and a longer text would be the
            // largest thing painted, so the page would count as drawn only when the banner is (decision 0064).
            <p className="text-xs text-muted">Quick access and new-idea alerts</p>
          )}
        </div>
        <button
          type="button"
          onClick={notNow}
          aria-label="Close"
          className="-mr-1 self-start rounded-lg p-1 text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-2 flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={notNow}>
          Not Now
        </Button>
        {prompt ? (
          <Button size="sm" onClick={() => void promptInstall()}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Install
          </Button>
        ) : null}
      </div>
    </section>
  );
}
