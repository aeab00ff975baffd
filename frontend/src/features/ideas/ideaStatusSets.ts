import type { Idea } from "./types";

/** Statuses that close an idea (it leaves the active lists for the history pages). */
export const COMPLETED_STATUSES: ReadonlySet<Idea["status"]> = new Set(["successful", "unsuccessful"]);
