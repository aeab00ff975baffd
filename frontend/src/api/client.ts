import createClient from "openapi-fetch";
import type { components, paths } from "./schema";
import { streamPositionMiddleware } from "./streamPosition";

export type Schemas = components["schemas"];
export type CurrentUser = components["schemas"]["CurrentUser"];
export type AppConfig = components["schemas"]["AppConfig"];
export type LoginRequest = components["schemas"]["LoginRequest"];
export type LoginResponse = components["schemas"]["LoginResponse"];
export type Role = CurrentUser["role"];

/**
 * Typed API client. Same-origin requests; the session lives in an HttpOnly
 * cookie set by the server, so the browser never handles the token.
 */
export const api = createClient<paths>({
  baseUrl: "",
  credentials: "include",
  // Resolve fetch at call time so tests can stub globalThis.fetch.
  fetch: (request: Request) => globalThis.fetch(request),
});
// Before any request: the event stream needs the position of the very first answers.
api.use(streamPositionMiddleware);
