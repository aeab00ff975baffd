import { Download, Share, SquarePlus, TrendingUp, X } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Button } from "../../components/Button";
import { INSTALL_DISMISSED_KEY, isDismissed, isStandalone, rememberDismissal } from "./dismissal";
import { getInstallPrompt, isIos, promptInstall, subscribeInstallPrompt } from "./installPrompt";

/**
 * Offers to install the app when the browser allows it (beforeinstallprompt), and on iPhone and iPad, where
 * Safari has no such prompt, says the Add to Home Screen steps, in one line at the bottom of the screen. "Not now"
 * hides it for 7 days; it never shows inside the installed app, nor on the signed-out pages (RootLayout), where it
 * would cover the login page's legal links.
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
      className="fixed inset-x-0 bottom-0 z-50 border-t border-line bg-card/95 px-3 py-2 shadow-2xl shadow-black/40 backdrop-blur sm:inset-x-auto sm:bottom-4 sm:right-4 sm:max-w-md sm:rounded-2xl sm:border"
    >
      {/* One line at the bottom (issue #39: at most 12 % of a phone's screen); the app's mark drawn in place. */}
      <div className="flex items-center gap-2">
        <TrendingUp className="h-5 w-5 shrink-0 text-emerald-500" aria-hidden="true" />
        <p className="min-w-0 flex-1 truncate text-sm font-semibold text-fg">
          {ios ? (
            <>
              Install: tap <Share className="inline h-4 w-4 align-text-bottom" aria-label="Share" />, then Add to Home Screen{" "}
              <SquarePlus className="inline h-4 w-4 align-text-bottom" aria-hidden="true" />
            </>
          ) : (
            <>Install {appName}</>
          )}
        </p>
        {prompt ? (
          <Button size="sm" onClick={() => void promptInstall()}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Install
          </Button>
        ) : null}
        <button
          type="button"
          onClick={notNow}
          aria-label="Not now"
          className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:h-8 sm:w-8"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
    </section>
  );
}
