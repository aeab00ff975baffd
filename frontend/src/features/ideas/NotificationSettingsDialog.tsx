import { Settings } from "lucide-react";
import { useId } from "react";
import { toast } from "sonner";
import { errorMessage } from "../../api/errors";
import { Dialog } from "../../components/Dialog";
import { Switch } from "../../components/Switch";
import { MARKET_LABEL, type Market } from "../../lib/session";
import { useNotificationSettings } from "./useNotificationSettings";
import { useUpdateNotificationSettings } from "./useUpdateNotificationSettings";

const trigger =
  "inline-flex h-10 w-10 items-center justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

/** Per-market notification switches (Forex / Crypto ON/OFF), saved on the server. */
export function NotificationSettingsDialog() {
  const id = useId();
  const settings = useNotificationSettings();
  const save = useUpdateNotificationSettings();
  const current = save.isPending && save.variables ? save.variables : settings.data;

  const toggle = (market: Market, on: boolean) => {
    if (!current) return;
    save.mutate(
      { ...current, [market]: on },
      {
        onSuccess: () => toast.success("Notification settings saved", { description: `${MARKET_LABEL[market]} notifications ${on ? "on" : "off"}.` }),
        onError: (error) => toast.error("Failed to save notification settings", { description: errorMessage(error) }),
      },
    );
  };

  return (
    <Dialog
      title="Notification Settings"
      description="Choose which markets count new ideas and send you alerts."
      className="max-w-md"
      trigger={
        <button type="button" aria-label="Notification settings" title="Notification settings" className={trigger}>
          <Settings className="h-5 w-5" aria-hidden="true" />
        </button>
      }
    >
      {settings.isPending ? (
        <p role="status" className="text-sm text-muted">Loading...</p>
      ) : settings.isError || !current ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">{errorMessage(settings.error, "Failed to load notification settings")}</p>
      ) : (
        <ul className="space-y-3">
          {(["forex", "crypto"] as const).map((market) => (
            <li key={market} className="flex items-center justify-between gap-4 rounded-xl border border-line bg-field px-4 py-3">
              <label htmlFor={`${id}-${market}`} className="cursor-pointer font-medium text-fg">
                {MARKET_LABEL[market]}
              </label>
              <span className="flex items-center gap-3">
                <span aria-hidden="true" className={`w-7 text-right text-xs font-bold ${current[market] ? "text-emerald-500" : "text-muted"}`}>
                  {current[market] ? "ON" : "OFF"}
                </span>
                <Switch id={`${id}-${market}`} checked={current[market]} disabled={save.isPending} onCheckedChange={(on) => toggle(market, on)} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
