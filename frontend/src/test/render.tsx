import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import { useLayoutEffect } from "react";
import { MemoryRouter, useLocation, type Location } from "react-router";
import { Providers } from "../app/providers";
import { AppRoutes } from "../app/router";

export function testQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/** Where the app is: `router.state.location` follows the current location (as a data router's state would). */
interface RouterProbe {
  state: { location: Location };
}

function LocationProbe({ onChange }: { onChange: (location: Location) => void }) {
  const location = useLocation();
  useLayoutEffect(() => onChange(location), [onChange, location]);
  return null;
}

/** Renders the whole app at `path` with a memory router (the same routes and title logic as `main.tsx`). */
export function renderApp(path: string, client = testQueryClient()) {
  const router: RouterProbe = { state: { location: { pathname: path, search: "", hash: "", state: null, key: "default" } } };
  const utils = render(
    <Providers client={client}>
      <MemoryRouter initialEntries={[path]}>
        <LocationProbe
          onChange={(location) => {
            router.state.location = location;
          }}
        />
        <AppRoutes />
      </MemoryRouter>
    </Providers>,
  );
  return { ...utils, router, client };
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", ...headers },
  });
}
