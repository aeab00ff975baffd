import { Suspense, lazy } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { Outlet, useLocation } from "react-router";
import { PageError } from "../components/PageError";
import { FullPageSpinner } from "../components/Spinner";
import { useAppConfigValue } from "../features/auth/useAppConfig";
import { ScrollToTop } from "./ScrollToTop";
import { SessionRefresher } from "./SessionRefresher";

// Banners for rare moments (offline, installable): loaded after the first screen.
const InstallBanner = lazy(async () => ({ default: (await import("../features/pwa/InstallBanner")).InstallBanner }));
const OfflineBanner = lazy(async () => ({ default: (await import("../features/pwa/OfflineBanner")).OfflineBanner }));

/** What a route declares in its `handle`: the page name used in the document title. */
export interface RouteHandle {
  title: string;
}

/** Sets the document title to "{page} - {APP_NAME}" (`page`: the deepest matched route's `handle.title`). */
export function DocumentTitle({ page }: { page: string | undefined }) {
  const { appName } = useAppConfigValue();
  return <title>{page ? `${page} - ${appName}` : appName}</title>;
}

export function RootLayout() {
  const { pathname } = useLocation();
  return (
    <>
      <ScrollToTop />
      <SessionRefresher />
      <Suspense fallback={null}>
        <OfflineBanner />
      </Suspense>
      {/* A screen that fails (its code could not be fetched, say) shows how to recover instead of a blank page; going elsewhere tries again. React logs the error. */}
      <ErrorBoundary FallbackComponent={PageError} resetKeys={[pathname]}>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      <Suspense fallback={null}>
        <InstallBanner />
      </Suspense>
    </>
  );
}
