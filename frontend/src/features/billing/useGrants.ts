import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import { billingKeys } from "./queryKeys";

/** GET /api/admin/grants: the newest grants, or one member's by e-mail. */
export function useGrants(email: string) {
  return useQuery({
    queryKey: billingKeys.grants(email),
    queryFn: ({ signal }) => unwrap(api.GET("/api/admin/grants", { params: { query: { email } }, signal }), "Could not load the grants"),
    placeholderData: keepPreviousData,
  });
}
