import { Suspense, lazy } from "react";
import { Outlet } from "react-router";
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
  return (
    <>
      <ScrollToTop />
      <SessionRefresher />
      <Suspense fallback={null}>
        <OfflineBanner />
      </Suspense>
      <Suspense fallback={<FullPageSpinner />}>
        <Outlet />
      </Suspense>
      <Suspense fallback={null}>
        <InstallBanner />
      </Suspense>
    </>
  );
}
