export const NETWORK_ERROR_MESSAGE = "Network error. Please try again.";

/** Statuses that are never retried: the answer will not change by asking again. */
export const NON_RETRYABLE_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429]);

/** An error answered by the server ({message, code}) or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly retryAfter: number | null;

  constructor(message: string, status: number, code: string | null = null, retryAfter: number | null = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

function messageOf(body: unknown): { message: string | null; code: string | null } {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const message = typeof b.message === "string" && b.message.trim() ? b.message : null;
    const code = typeof b.code === "string" ? b.code : null;
    return { message, code };
  }
  return { message: null, code: null };
}

/** Builds an ApiError from an error body and its response. */
export function toApiError(body: unknown, response: Response, fallback: string): ApiError {
  const { message, code } = messageOf(body);
  const retryHeader = response.headers.get("Retry-After");
  const retryAfter = retryHeader !== null && /^\d+$/.test(retryHeader) ? Number(retryHeader) : null;
  return new ApiError(message ?? fallback, response.status, code, retryAfter);
}

type FetchResult<T> = { data?: T; error?: unknown; response: Response };

/**
 * Awaits an openapi-fetch call and returns its data, or throws an ApiError with
 * the server's message (or `fallback`). A failed fetch or an unreadable body
 * becomes 'Network error. Please try again.'.
 */
export async function unwrap<T>(call: Promise<FetchResult<T>>, fallback = "Request failed"): Promise<T> {
  let result: FetchResult<T>;
  try {
    result = await call;
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
  }
  if (!result.response.ok) {
    throw toApiError(result.error, result.response, fallback);
  }
  return result.data as T;
}

/** True for errors worth one more try (network failures and server errors). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return !NON_RETRYABLE_STATUSES.has(error.status);
  return true;
}

/** A user-facing message for any thrown value. */
export function errorMessage(error: unknown, fallback = "Something went wrong"): string {
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
