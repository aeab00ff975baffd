import { Download, X } from "lucide-react";
import { useState, useSyncExternalStore } from "react";
import { Button } from "../../components/Button";
import { INSTALL_DISMISSED_KEY, isDismissed, isStandalone, rememberDismissal } from "./dismissal";
import { getInstallPrompt, promptInstall, subscribeInstallPrompt } from "./installPrompt";

/**
 * Offers to install the app when the browser allows it (beforeinstallprompt). Not Now hides it
 * for 7 days; it never shows inside the installed app.
 */
export function InstallBanner({ appName = "Trade Ideas" }: { appName?: string }) {
  const prompt = useSyncExternalStore(subscribeInstallPrompt, getInstallPrompt, () => null);
  const [hidden, setHidden] = useState(() => isDismissed(INSTALL_DISMISSED_KEY) || isStandalone());
  if (!prompt || hidden) return null;

  const notNow = () => {
    rememberDismissal(INSTALL_DISMISSED_KEY);
    setHidden(true);
  };

  return (
    <section
      aria-label="Install app"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto max-w-md rounded-2xl border border-line bg-card/95 p-4 shadow-2xl shadow-black/40 backdrop-blur sm:inset-x-auto sm:right-4 sm:bottom-4"
    >
      <div className="flex items-start gap-3">
        <img src="/icons/icon-192.png" alt="" width={44} height={44} className="h-11 w-11 shrink-0 rounded-xl" />
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-fg">Install {appName}</p>
          <p className="mt-0.5 text-sm text-muted">Add the app to your home screen for quick access and new-idea alerts.</p>
        </div>
        <button
          type="button"
          onClick={notNow}
          aria-label="Close"
          className="-mt-1 -mr-1 rounded-lg p-1 text-muted hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <X className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
      <div className="mt-3 flex justify-end gap-2">
        <Button variant="ghost" size="sm" onClick={notNow}>
          Not Now
        </Button>
        <Button size="sm" onClick={() => void promptInstall()}>
          <Download className="h-4 w-4" aria-hidden="true" />
          Install
        </Button>
      </div>
    </section>
  );
}
