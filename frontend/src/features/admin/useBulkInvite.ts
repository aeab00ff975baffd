import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { ApiError, NETWORK_ERROR_MESSAGE, toApiError } from "../../api/errors";
import { adminKeys } from "./queryKeys";
import type { BulkInviteRow } from "./types";

/** The rows back, with a link each, or (nothing created) with each row's error. */
export interface BulkInviteResult {
  created: boolean;
  message: string | null;
  rows: BulkInviteRow[];
}

/** POST /api/admin/invites/bulk: CSV lines of e-mail,first name,last name. */
export function useBulkInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (csv: string): Promise<BulkInviteResult> => {
      let result;
      try {
        result = await api.POST("/api/admin/invites/bulk", { body: { csv } });
      } catch {
        throw new ApiError(NETWORK_ERROR_MESSAGE, 0);
      }
      if (result.data) return { created: true, message: null, rows: result.data.rows };
      const error = result.error as { rows?: BulkInviteRow[]; message?: string } | undefined;
      if (result.response.status === 422 && error?.rows) {
        return { created: false, message: error.message ?? null, rows: error.rows };
      }
      throw toApiError(result.error, result.response, "Could not create the invitations");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}
