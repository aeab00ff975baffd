import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { Providers } from "./app/providers";
import { registerOfflineWrites, startFromBrowserConnection } from "./app/offlineWrites";
import { createQueryClient } from "./app/queryClient";
import { AppRoutes, preloadFirstScreen, preloadFirstScreenCode } from "./app/router";
import { appConfigQueryOptions } from "./features/auth/useAppConfig";
import { startPwa } from "./features/pwa/registerServiceWorker";
import { applyTheme, readTheme } from "./lib/theme";
import "./index.css";

applyTheme(readTheme());
startPwa();

startFromBrowserConnection();
const queryClient = createQueryClient();
registerOfflineWrites(queryClient);
const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");
const app = createRoot(root);

// The first screen's requests and render start in tasks of their own, just after the one that evaluated the
// app's modules: each long task blocks input on a slow phone (Lighthouse's Total Blocking Time counts every
// task's time beyond 50 ms), and this work made that task about a third longer. The requests go first, the
// screen's code in a task that does nothing else, then its data: a request can leave only when the task that
// sends it ends, and starting the render in the same task made it about twice as long (Lighthouse trace of
// /customer/forex: 47 ms against 23 ms, before its 4x slow-phone factor), so the market page's code and data
// left that much later (decision 0064).
setTimeout(() => preloadFirstScreenCode());
setTimeout(() => {
  preloadFirstScreen(queryClient);
  void queryClient.prefetchQuery(appConfigQueryOptions); // every screen shows it: ask before the first render
});
setTimeout(() => {
  // A transition renders in slices that yield to the browser every few milliseconds, instead of one
  // long task that blocks input on a slow phone.
  startTransition(() =>
    app.render(
      <StrictMode>
        <Providers client={queryClient} persist>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </Providers>
      </StrictMode>,
    ),
  );
});
