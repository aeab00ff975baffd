import { onlineManager } from "@tanstack/react-query";
import { BellRing, Settings } from "lucide-react";
import { useId, useState, type ReactNode } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Select } from "../../components/Select";
import { Switch } from "../../components/Switch";
import { WriteStatus } from "../../components/WriteStatus";
import { latestWrite, useKeptWrites } from "../../lib/keptWrites";
import { useWhenIdle } from "../../lib/whenIdle";
import { MARKET_LABEL } from "../../lib/session";
import type { NotificationSettings } from "../../lib/notificationSettings";
import { useEducatorNames } from "./useEducatorNames";
import { useNotificationSettings } from "./useNotificationSettings";
import { useSendTestNotification } from "./useSendTestNotification";
import { updateNotificationSettingsKey, useUpdateNotificationSettings } from "./useUpdateNotificationSettings";

const trigger =
  "inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400";

type Events = NonNullable<NotificationSettings["events"]>;
const EVENT_LABEL: Record<keyof Events, string> = { newIdea: "New ideas", ideaClosed: "Ideas closed", chatMessage: "Chat messages" };
const DEFAULT_EVENTS: Events = { newIdea: true, ideaClosed: true, chatMessage: false };

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf ? intl.supportedValuesOf("timeZone") : [browserZone()];
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-bold uppercase tracking-wide text-muted">{title}</h3>
      <ul className="space-y-2">{children}</ul>
    </section>
  );
}

function SwitchRow({ id, label, checked, disabled, onChange }: { id: string; label: string; checked: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  return (
    <li className="flex items-center justify-between gap-4 rounded-xl border border-line bg-field px-4 py-3">
      <label htmlFor={id} className="cursor-pointer font-medium text-fg">
        {label}
      </label>
      <span className="flex items-center gap-3">
        <span aria-hidden="true" className={`w-7 text-right text-xs font-bold ${checked ? "text-emerald-500" : "text-muted"}`}>
          {checked ? "ON" : "OFF"}
        </span>
        <Switch id={id} checked={checked} disabled={disabled} onCheckedChange={onChange} />
      </span>
    </li>
  );
}

/**
 * What reaches this customer's phone: markets, then educators, then events, then quiet hours (a push is sent
 * only when its market, educator and event are all on), and a test notification.
 */
export function NotificationSettingsDialog() {
  const id = useId();
  // Not part of the first paint (the dialog is closed): asked for once the page has been painted (lib/whenIdle).
  const ready = useWhenIdle();
  const settings = useNotificationSettings(ready);
  const names = useEducatorNames(ready);
  const save = useUpdateNotificationSettings();
  const test = useSendTestNotification();
  const kept = latestWrite(useKeptWrites<NotificationSettings>(updateNotificationSettingsKey, () => true));
  // What the customer chose last: a change kept for later (or on its way), else the one being saved, else the server's.
  const current =
    kept && (kept.state === "waiting" || kept.state === "sending") ? kept.variables : save.isPending && save.variables ? save.variables : settings.data;
  // Changes made without a connection queue up in order; only a save on its way holds the switches.
  const busy = save.isPending && !save.isPaused;
  const [quietDraft, setQuietDraft] = useState<NotificationSettings["quietHours"]>(null);
  const quiet = quietDraft ?? current?.quietHours ?? null;

  const update = (change: Partial<NotificationSettings>, what: string) => {
    if (!current) return;
    const keptForLater = !onlineManager.isOnline();
    save.mutate(
      { ...current, ...change },
      {
        onSuccess: () => {
          // Only the draft that was saved goes; times typed while an earlier save was in flight stay.
          setQuietDraft((draft) => (draft !== null && draft === change.quietHours ? null : draft));
          toast.success("Notification settings saved", { description: what });
        },
        // A change that waited shows the server's answer in the dialog instead.
        onError: (error) => (keptForLater ? undefined : toast.error("Failed to save notification settings", { description: errorMessage(error) })),
      },
    );
  };

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (result) => {
        const detail = result.details as { error?: string; errors?: string[] };
        const reason = detail.error ?? detail.errors?.[0];
        if (result.success) toast.success(result.message);
        else toast.error(result.message, { description: reason });
      },
    });
  const testResult = test.data
    ? test.data.success
      ? test.data.message
      : `${test.data.message}: ${(test.data.details as { error?: string; errors?: string[] }).error ?? (test.data.details as { errors?: string[] }).errors?.join("; ") ?? ""}`
    : null;

  let body: ReactNode;
  if (settings.isPending) {
    body = <p role="status" className="text-sm text-muted">Loading...</p>;
  } else if (settings.isError || !current) {
    body = <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">{errorMessage(settings.error, "Failed to load notification settings")}</p>;
  } else {
    const events = current.events ?? DEFAULT_EVENTS;
    const educators = Object.entries(current.educators ?? {});
    body = (
      <div className="space-y-5">
        {kept ? <WriteStatus state={kept.state} message={kept.message} /> : null}
        <Section title="Markets">
          {(["forex", "crypto"] as const).map((market) => (
            <SwitchRow
              key={market}
              id={`${id}-${market}`}
              label={MARKET_LABEL[market]}
              checked={current[market]}
              disabled={busy}
              onChange={(on) => update({ [market]: on }, `${MARKET_LABEL[market]} notifications ${on ? "on" : "off"}.`)}
            />
          ))}
        </Section>
        {educators.length > 0 ? (
          <Section title="Educators">
            {educators.map(([educatorId, on]) => {
              const name = names.data?.get(Number(educatorId)) ?? `Educator ${educatorId}`;
              return (
                <SwitchRow
                  key={educatorId}
                  id={`${id}-educator-${educatorId}`}
                  label={name}
                  checked={on}
                  disabled={busy}
                  onChange={(value) => update({ educators: { ...current.educators, [educatorId]: value } }, `${name} ${value ? "on" : "off"}.`)}
                />
              );
            })}
          </Section>
        ) : null}
        <Section title="Events">
          {(Object.keys(EVENT_LABEL) as (keyof Events)[]).map((event) => (
            <SwitchRow
              key={event}
              id={`${id}-event-${event}`}
              label={EVENT_LABEL[event]}
              checked={events[event]}
              disabled={busy}
              onChange={(on) => update({ events: { ...events, [event]: on } }, `${EVENT_LABEL[event]} ${on ? "on" : "off"}.`)}
            />
          ))}
        </Section>
        <Section title="Quiet hours">
          <SwitchRow
            id={`${id}-quiet`}
            label="Hold notifications at night"
            checked={current.quietHours != null}
            disabled={busy}
            onChange={(on) =>
              update({ quietHours: on ? { start: "22:00", end: "07:00", timezone: browserZone() } : null }, on ? "Quiet hours on." : "Quiet hours off.")
            }
          />
          {quiet ? (
            <li className="space-y-3 rounded-xl border border-line bg-field px-4 py-3">
              <p className="text-sm text-muted">Pushes wait until quiet hours end, then arrive as one summary.</p>
              <div className="grid grid-cols-2 gap-3">
                <div>
                  <Label htmlFor={`${id}-from`}>From</Label>
                  <Input id={`${id}-from`} type="time" value={quiet.start} onChange={(e) => setQuietDraft({ ...quiet, start: e.target.value })} />
                </div>
                <div>
                  <Label htmlFor={`${id}-to`}>To</Label>
                  <Input id={`${id}-to`} type="time" value={quiet.end} onChange={(e) => setQuietDraft({ ...quiet, end: e.target.value })} />
                </div>
              </div>
              <div>
                <Label htmlFor={`${id}-zone`}>Time zone</Label>
                <Select id={`${id}-zone`} value={quiet.timezone} onChange={(e) => setQuietDraft({ ...quiet, timezone: e.target.value })}>
                  {[...new Set([quiet.timezone, ...timeZones()])].map((zone) => (
                    <option key={zone} value={zone}>
                      {zone}
                    </option>
                  ))}
                </Select>
              </div>
              {quietDraft ? (
                <Button size="sm" onClick={() => update({ quietHours: quietDraft }, `Quiet hours ${quietDraft.start}-${quietDraft.end}.`)} disabled={busy}>
                  Save quiet hours
                </Button>
              ) : null}
            </li>
          ) : null}
        </Section>
      </div>
    );
  }

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
      footer={
        <div className="space-y-2">
          <Button variant="secondary" className="w-full" onClick={sendTest} disabled={test.isPending}>
            <BellRing className="h-4 w-4" aria-hidden="true" />
            Send me a test notification
          </Button>
          {test.isError ? <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">{errorMessage(test.error)}</p> : null}
          {testResult ? (
            <p role="status" className={`text-sm ${test.data?.success ? "text-emerald-600 dark:text-emerald-400" : "text-rose-600 dark:text-rose-300"}`}>
              {testResult}
            </p>
          ) : null}
        </div>
      }
    >
      {body}
    </Dialog>
  );
}
