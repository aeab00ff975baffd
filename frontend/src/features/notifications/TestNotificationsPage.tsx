import { useMutation } from "@tanstack/react-query";
import { BellRing, CheckCircle2, Send, XCircle } from "lucide-react";
import { api, type Schemas } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { Spinner } from "../../components/Spinner";
import { PageHeader } from "../../components/PageHeader";

type Kind = "test" | "trade";
type PushTestIn = Schemas["PushTestIn"];

/** Spec §8 texts, without the name of the old push vendor (issue #39: members never knew "PushAlert"). */
export const TEXTS: Record<Kind, { ok: string; failed: string; error: string }> = {
  test: {
    ok: "Test notification sent successfully!",
    failed: "Test notification failed",
    error: "Error sending test notification",
  },
  trade: {
    ok: "Trade notification sent successfully!",
    failed: "Trade notification failed",
    error: "Error sending trade notification",
  },
};

/** A sample trade for the trade notification (educator name comes from the signed-in educator). */
const SAMPLE_TRADE: PushTestIn = {
  kind: "trade",
  market: "Forex",
  pair: "EUR/USD",
  ideaType: "Leverage",
  orderType: "BUY",
  direction: "Bullish",
};

/** What subscribing this browser came to (the app passes the Web Push helper in). */
export type EnsureSubscribed = () => Promise<{ ok: boolean; message?: string }>;

interface Outcome {
  kind: Kind;
  ok: boolean;
  title: string;
  /** Why it failed, in plain words, said once (the browser's reason first: it is the one the member can fix). */
  reason: string | null;
  details: Record<string, unknown>;
}

function reasonOf(browser: string | undefined, details: Record<string, unknown>): string | null {
  if (browser) return browser;
  return typeof details.error === "string" && details.error ? details.error : null;
}

async function sendTest(kind: Kind, ensureSubscribed: EnsureSubscribed): Promise<Outcome> {
  // Subscribe this browser first so the test reaches the educator sending it.
  const setup = await ensureSubscribed().catch((error: unknown) => ({ ok: false, message: errorMessage(error) }));
  try {
    const body: PushTestIn = kind === "trade" ? SAMPLE_TRADE : { kind: "test" };
    const out = await unwrap(api.POST("/api/push/test", { body }), TEXTS[kind].error);
    const details = { ...out.details };
    const reason = out.success ? null : reasonOf(setup.ok ? undefined : setup.message, details);
    return { kind, ok: out.success, title: out.success ? TEXTS[kind].ok : TEXTS[kind].failed, reason, details };
  } catch (error) {
    const details = { error: errorMessage(error) };
    return { kind, ok: false, title: TEXTS[kind].error, reason: reasonOf(setup.ok ? undefined : setup.message, details), details };
  }
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.length === 0) return "none";
  return JSON.stringify(value, null, 2);
}

function Details({ details }: { details: Record<string, unknown> }) {
  const entries = Object.entries(details);
  if (entries.length === 0) return null;
  return (
    <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {entries.map(([key, value]) => (
        <div key={key} className="contents">
          <dt className="font-medium text-muted">{key}</dt>
          <dd className="min-w-0 font-mono text-xs break-words whitespace-pre-wrap text-fg">{formatValue(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Notifications are not allowed in this browser yet (the control to allow them sits beside the failure). */
function notAllowed(): boolean {
  return typeof Notification !== "undefined" && Notification.permission !== "granted";
}

function Result({ outcome, onAllow }: { outcome: Outcome; onAllow: () => void }) {
  const Icon = outcome.ok ? CheckCircle2 : XCircle;
  return (
    <Card
      role={outcome.ok ? "status" : "alert"}
      className={outcome.ok ? "border-emerald-500/40 bg-emerald-500/5" : "border-rose-500/40 bg-rose-500/5"}
    >
      <p className={`flex items-center gap-2 font-semibold ${outcome.ok ? "text-emerald-600 dark:text-emerald-400" : "text-rose-600 dark:text-rose-300"}`}>
        <Icon className="h-5 w-5 shrink-0" aria-hidden="true" />
        {outcome.title}
      </p>
      {outcome.reason ? (
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <p className="min-w-0 flex-1 text-sm text-fg">{outcome.reason}</p>
          {notAllowed() ? (
            <Button size="sm" variant="secondary" onClick={onAllow}>
              <BellRing className="h-4 w-4" aria-hidden="true" />
              Allow notifications
            </Button>
          ) : null}
        </div>
      ) : null}
      {outcome.ok ? (
        <Details details={outcome.details} />
      ) : (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-muted">Technical details</summary>
          <Details details={outcome.details} />
        </details>
      )}
    </Card>
  );
}

/** Educators: send a test or sample trade notification to their own browser (POST /api/push/test). */
export function TestNotificationsPage({ ensureSubscribed }: { ensureSubscribed: EnsureSubscribed }) {
  const send = useMutation({
    mutationKey: ["push", "test"],
    mutationFn: (kind: Kind) => sendTest(kind, ensureSubscribed),
    retry: false,
  });
  const sending = send.isPending ? send.variables : null;

  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: "/educator/dashboard", label: "Dashboard" }} title="Push Notification Test" width="3xl" />
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
        <div>
          <p className="text-sm text-muted">Sends a notification to this browser. Allow notifications when asked.</p>
        </div>
        <Card className="grid gap-3 sm:grid-cols-2">
          <Button variant="secondary" disabled={send.isPending} onClick={() => send.mutate("test")}>
            {sending === "test" ? <Spinner className="h-4 w-4" /> : <BellRing className="h-4 w-4" aria-hidden="true" />}
            Send Test Notification
          </Button>
          <Button variant="secondary" disabled={send.isPending} onClick={() => send.mutate("trade")}>
            {sending === "trade" ? <Spinner className="h-4 w-4" /> : <Send className="h-4 w-4" aria-hidden="true" />}
            Send Trade Notification
          </Button>
        </Card>
        {send.data && !send.isPending ? (
          <Result outcome={send.data} onAllow={() => send.mutate(send.data.kind)} />
        ) : send.isPending ? null : (
          <EmptyState icon={BellRing} title="No notifications sent yet" />
        )}
      </main>
    </div>
  );
}
