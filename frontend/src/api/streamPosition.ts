import type { Middleware } from "openapi-fetch";

/**
 * Every API answer carries `X-Stream-Position`: how far along the event stream the server was when the request
 * came in (the answer shows every change up to there, maybe more). The app opens its event stream a moment after
 * its first data; opened with `?since=` the earliest position of that data, the stream starts with `resync` when
 * anything changed in between, so a change made in that moment is not missed.
 */
export const STREAM_POSITION_HEADER = "X-Stream-Position";

let earliest: bigint | null = null;

/** Keeps the earliest position of the answers since they were last forgotten. */
export function notePosition(value: string | null): void {
  if (value === null || !/^\d{1,20}$/.test(value)) return;
  const position = BigInt(value);
  if (earliest === null || position < earliest) earliest = position;
}

/** The earliest position noted since they were last forgotten (null if none). */
export function earliestPosition(): string | null {
  return earliest === null ? null : earliest.toString();
}

/** Forget the positions noted so far: a stream that opened covers everything after them. */
export function forgetPositions(): void {
  earliest = null;
}

export const streamPositionMiddleware: Middleware = {
  onResponse({ response }) {
    notePosition(response.headers.get(STREAM_POSITION_HEADER));
  },
};
