import type { Schemas } from "../../api/client";

export type Member = Schemas["Member"];
export type MemberPage = Schemas["MemberPage"];
export type MemberRole = Member["role"];
export type MemberState = Member["state"];
export type AuditPage = Schemas["AuditPage"];
export type BulkInviteRow = Schemas["BulkInviteRow"];

export interface MemberFilter {
  query: string;
  role: MemberRole | "";
  state: MemberState | "";
  page: number;
}
