import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { uint8ArrayToUrlBase64, urlBase64ToUint8Array } from "../../lib/base64url";

/** What came of trying to get this browser subscribed for the signed-in user. */
export type PushSetup =
  | { ok: true; endpoint: string }
  | { ok: false; reason: "unsupported" | "denied" | "dismissed" | "error"; message: string };

export const PUSH_UNSUPPORTED = "This browser does not support push notifications.";
export const PUSH_DENIED = "Notifications are blocked for this site. Allow them in the browser settings.";
export const PUSH_DISMISSED = "Notification permission was not granted.";

export function pushSupported(): boolean {
  return (
    typeof window !== "undefined" &&
    "serviceWorker" in navigator &&
    "PushManager" in window &&
    "Notification" in window &&
    window.isSecureContext
  );
}

export function notificationPermission(): NotificationPermission | "unsupported" {
  return pushSupported() ? Notification.permission : "unsupported";
}

/** The service worker registration, waiting at most `ms` for it (it registers at startup). */
async function registration(ms = 10_000): Promise<ServiceWorkerRegistration> {
  let timer: number | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = window.setTimeout(() => reject(new Error("The service worker is not ready.")), ms);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    window.clearTimeout(timer);
  }
}

async function publicKey(): Promise<string> {
  const out = await unwrap(api.GET("/api/push/public-key"), "Failed to load the push key");
  return out.publicKey;
}

function sameKey(subscription: PushSubscription, key: string): boolean {
  const current = subscription.options?.applicationServerKey;
  return !current || uint8ArrayToUrlBase64(current) === key.replace(/=+$/, "");
}

/** POST /api/push/subscriptions with the browser's subscription (the server upserts by endpoint). */
async function saveSubscription(subscription: PushSubscription): Promise<void> {
  const json = subscription.toJSON();
  const keys = json.keys ?? {};
  if (!json.endpoint || !keys.p256dh || !keys.auth) throw new Error("The browser returned an incomplete push subscription.");
  await unwrap(
    api.POST("/api/push/subscriptions", { body: { endpoint: json.endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth } } }),
    "Failed to save the push subscription",
  );
}

async function askPermission(): Promise<NotificationPermission> {
  if (Notification.permission !== "default") return Notification.permission;
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Makes sure this browser receives Web Push for the signed-in user: asks for permission when
 * `ask` is set (otherwise only proceeds if already granted), subscribes with the server's VAPID
 * key (re-subscribing if the key changed) and registers the subscription with the server.
 */
export async function ensurePushSubscription({ ask }: { ask: boolean }): Promise<PushSetup> {
  if (!pushSupported()) return { ok: false, reason: "unsupported", message: PUSH_UNSUPPORTED };
  const permission = ask ? await askPermission() : Notification.permission;
  if (permission === "denied") return { ok: false, reason: "denied", message: PUSH_DENIED };
  if (permission !== "granted") return { ok: false, reason: "dismissed", message: PUSH_DISMISSED };
  try {
    const [reg, key] = await Promise.all([registration(), publicKey()]);
    let subscription = await reg.pushManager.getSubscription();
    if (subscription && !sameKey(subscription, key)) {
      await subscription.unsubscribe().catch(() => false);
      subscription = null;
    }
    subscription ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: urlBase64ToUint8Array(key) });
    await saveSubscription(subscription);
    return { ok: true, endpoint: subscription.endpoint };
  } catch (error) {
    const message = error instanceof Error && error.message ? error.message : "Could not subscribe to notifications.";
    return { ok: false, reason: "error", message };
  }
}

/**
 * On logout: tells the server to forget this browser's subscription (while the session still
 * exists) and drops it in the browser, so the next person signing in here subscribes afresh.
 * Never throws and never takes longer than `ms`.
 */
export async function removePushSubscription(ms = 3_000): Promise<void> {
  if (!pushSupported()) return;
  const work = (async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    const subscription = await reg?.pushManager.getSubscription();
    if (!subscription) return;
    await unwrap(api.DELETE("/api/push/subscriptions", { body: { endpoint: subscription.endpoint } }), "Failed to remove the push subscription").catch(
      () => undefined,
    );
    await subscription.unsubscribe().catch(() => false);
  })().catch(() => undefined);
  let timer: number | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = window.setTimeout(resolve, ms)))]);
  window.clearTimeout(timer);
}
