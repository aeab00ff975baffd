import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useLocation } from "react-router";
import { currentUserQueryKey } from "../features/auth/useCurrentUser";

const DAY_MS = 24 * 60 * 60 * 1000;
const ROUTE_REFRESH_MIN_MS = 60 * 1000;

/**
 * Keeps the session alive: GET /api/auth/user slides the server session, so it is
 * refetched when the tab becomes visible, once a day, and (at most once a minute) on
 * route changes. On / and /login the query cache is cleared (the public config stays).
 */
export function SessionRefresher() {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();

  useEffect(() => {
    const refresh = () => {
      void queryClient.refetchQueries({ queryKey: currentUserQueryKey });
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") refresh();
    };
    document.addEventListener("visibilitychange", onVisibility);
    const timer = window.setInterval(refresh, DAY_MS);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.clearInterval(timer);
    };
  }, [queryClient]);

  useEffect(() => {
    if (pathname === "/" || pathname === "/login") {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "config" });
      return;
    }
    const state = queryClient.getQueryState(currentUserQueryKey);
    if (state?.data && state.fetchStatus === "idle" && Date.now() - state.dataUpdatedAt > ROUTE_REFRESH_MIN_MS) {
      void queryClient.refetchQueries({ queryKey: currentUserQueryKey });
    }
  }, [pathname, queryClient]);

  return null;
}
