/**
 * Decodes a base64url string (as VAPID public keys are published) into the bytes that
 * pushManager.subscribe wants as applicationServerKey. Padding and standard base64 are accepted too.
 */
export function urlBase64ToUint8Array(value: string): Uint8Array<ArrayBuffer> {
  const trimmed = value.trim();
  const padding = "=".repeat((4 - (trimmed.length % 4)) % 4);
  const base64 = (trimmed + padding).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** The reverse (used to compare a subscription's key with the server's). */
export function uint8ArrayToUrlBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let raw = "";
  for (const byte of view) raw += String.fromCharCode(byte);
  return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
