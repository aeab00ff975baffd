import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { adminKeys } from "./queryKeys";

/** GET /api/admin/audit-log: who did what to whom and when, newest first. */
export function auditLogQueryOptions(page: number) {
  return queryOptions({
    queryKey: adminKeys.audit(page),
    queryFn: ({ signal }) => unwrap(api.GET("/api/admin/audit-log", { params: { query: { page } }, signal }), "Could not load the audit log"),
    placeholderData: keepPreviousData,
  });
}

export function useAuditLog(page: number) {
  return useQuery(auditLogQueryOptions(page));
}
