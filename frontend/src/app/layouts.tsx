import { Outlet } from "react-router";
import { InstallBanner } from "../features/pwa/InstallBanner";
import { OfflineBanner } from "../features/pwa/OfflineBanner";
import { ScrollToTop } from "./ScrollToTop";
import { SessionRefresher } from "./SessionRefresher";

export function RootLayout() {
  return (
    <>
      <ScrollToTop />
      <SessionRefresher />
      <OfflineBanner />
      <Outlet />
      <InstallBanner />
    </>
  );
}
