import { Suspense, lazy, useEffect, useSyncExternalStore } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { Outlet, useLocation } from "react-router";
import { PageError } from "../components/PageError";
import { FullPageSpinner } from "../components/Spinner";
import { useAppConfigValue } from "../features/auth/useAppConfig";
import { getInstallPrompt, isIos, linkManifest, subscribeInstallPrompt } from "../features/pwa/installPrompt";
// Part of the first download (~0.3 KB): it must show when the network is gone, when its code could no
// longer be fetched.
import { OfflineBanner } from "../features/pwa/OfflineBanner";
import { forgetFailedCustomerExtras } from "./ideaExtras";
import { ScrollToTop } from "./ScrollToTop";
import { SessionRefresher } from "./SessionRefresher";

// Fetched only once the browser offers to install the app, so that no first screen waits for it.
const InstallBanner = lazy(async () => ({ default: (await import("../features/pwa/InstallBanner")).InstallBanner }));

/** What a route declares in its `handle`: the page name used in the document title. */
export interface RouteHandle {
  title: string;
}

/** Sets the document title to "{page} - {APP_NAME}" (`page`: the deepest matched route's `handle.title`). */
export function DocumentTitle({ page }: { page: string | undefined }) {
  const { appName } = useAppConfigValue();
  return <title>{page ? `${page} - ${appName}` : appName}</title>;
}

/** Screens whose first paint the manifest waits for: linked by SignedIn once the page has been painted (decision 0064). */
const MANIFEST_AFTER_FIRST_PAINT = /^\/customer\/(forex|crypto)\/?$/;

/** Screens behind a sign-in (not /admin/login). */
const SIGNED_IN_SCREEN = /^\/(customer|educator)(\/|$)|^\/admin(?!\/login)(\/|$)/;

export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!MANIFEST_AFTER_FIRST_PAINT.test(pathname)) linkManifest();
  }, [pathname]);
  // iPhone and iPad never offer a prompt: the banner shows the Add to Home Screen steps there.
  const installable = useSyncExternalStore(subscribeInstallPrompt, getInstallPrompt, () => null) !== null || isIos();
  // Signed-in screens only: on the login and legal pages the banner would cover their links.
  const signedInScreen = SIGNED_IN_SCREEN.test(pathname);
  return (
    <>
      <ScrollToTop />
      <SessionRefresher />
      <OfflineBanner />
      {/* A screen that fails (its code could not be fetched, say) shows how to recover instead of a blank page; going elsewhere tries again. React logs the error. */}
      <ErrorBoundary FallbackComponent={PageError} resetKeys={[pathname]} onReset={forgetFailedCustomerExtras}>
        <Suspense fallback={<FullPageSpinner />}>
          <Outlet />
        </Suspense>
      </ErrorBoundary>
      {installable && signedInScreen ? (
        // The offer is an extra: if its code cannot be fetched, there is no banner.
        <ErrorBoundary fallback={null}>
          <Suspense fallback={null}>
            <InstallBanner />
          </Suspense>
        </ErrorBoundary>
      ) : null}
    </>
  );
}
