/**
 * The spec's `userRole` storage key, kept only as a hint that this browser may hold a session (the
 * session itself is an HttpOnly cookie the page cannot see). The login pages ask the server who is
 * signed in only when the hint is there, so a visitor's first page makes no request that fails with 401.
 */
const KEY = "userRole";

export function rememberSignedIn(role: string): void {
  try {
    localStorage.setItem(KEY, role);
  } catch {
    // storage unavailable: the login page simply shows
  }
}

export function forgetSignedIn(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing stored
  }
}

export function maybeSignedIn(): boolean {
  try {
    return localStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}
