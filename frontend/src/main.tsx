import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { Providers } from "./app/providers";
import { createRouter } from "./app/router";
import { startPwa } from "./features/pwa/registerServiceWorker";
import { applyTheme, readTheme } from "./lib/theme";
import "./index.css";

applyTheme(readTheme());
startPwa();

const router = createRouter();
const root = document.getElementById("root");
if (!root) throw new Error("Missing #root element");

createRoot(root).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
