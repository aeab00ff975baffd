import type { ExternalToast } from "sonner";

/**
 * A toast from the login pages, which load sonner on demand (the first page's JavaScript stays small;
 * every other screen imports `toast` from sonner directly).
 */
export function notify(kind: "message" | "success", title: string, options?: ExternalToast): void {
  void import("sonner").then(({ toast }) => (kind === "success" ? toast.success(title, options) : toast(title, options)));
}
