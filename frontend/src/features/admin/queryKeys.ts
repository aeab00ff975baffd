import type { MemberFilter } from "./types";

export const adminKeys = {
  all: ["admin"] as const,
  members: (filter: MemberFilter) => ["admin", "members", filter] as const,
  audit: (page: number) => ["admin", "audit", page] as const,
};
