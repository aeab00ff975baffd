import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, testQueryClient } from "../../test/render";
import { NotificationSettingsDialog } from "./NotificationSettingsDialog";
import type { NotificationSettings } from "../../lib/notificationSettings";

const DEFAULTS: NotificationSettings = {
  forex: true,
  crypto: true,
  educators: { "1": true },
  events: { newIdea: true, ideaClosed: true, chatMessage: false },
  quietHours: null,
};

/** A settings API whose saves wait until the test lets each one finish, as on a slow connection. */
function stubSettingsApi() {
  const saves: { body: NotificationSettings; finish: () => void }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (req: Request) => {
      const url = new URL(req.url, "http://localhost");
      if (url.pathname === "/api/me/notification-settings" && req.method === "GET") return jsonResponse(DEFAULTS);
      if (url.pathname === "/api/me/notification-settings" && req.method === "PUT") {
        const body = (await req.json()) as NotificationSettings;
        await new Promise<void>((finish) => saves.push({ body, finish }));
        return jsonResponse(body);
      }
      if (url.pathname === "/api/users/educators") return jsonResponse([{ id: 1, displayName: "Alex Morgan" }]);
      return jsonResponse({ message: "Not Found" }, 404);
    }),
  );
  return saves;
}

afterEach(() => vi.unstubAllGlobals());

describe("NotificationSettingsDialog", () => {
  it("keeps quiet hours typed while the switch's own save is still in flight, and saves them", async () => {
    const saves = stubSettingsApi();
    render(
      <QueryClientProvider client={testQueryClient()}>
        <NotificationSettingsDialog />
      </QueryClientProvider>,
    );
    await userEvent.click(screen.getByRole("button", { name: "Notification settings" }));
    const dialog = await screen.findByRole("dialog", { name: "Notification Settings" });
    await userEvent.click(await screen.findByRole("switch", { name: "Hold notifications at night" }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]?.body.quietHours).toMatchObject({ start: "22:00", end: "07:00" });

    const to = screen.getByLabelText("To", { exact: true });
    await userEvent.clear(to);
    await userEvent.type(to, "06:30");
    saves[0]?.finish();

    const save = await screen.findByRole("button", { name: "Save quiet hours" });
    await waitFor(() => expect(save).toBeEnabled());
    expect(screen.getByLabelText("To", { exact: true })).toHaveValue("06:30");
    await userEvent.click(save);
    await waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1]?.body.quietHours).toMatchObject({ start: "22:00", end: "06:30" });
    saves[1]?.finish();
    await waitFor(() => expect(screen.queryByRole("button", { name: "Save quiet hours" })).toBeNull());
    expect(dialog).toBeInTheDocument();
  });
});
