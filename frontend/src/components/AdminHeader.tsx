import type { LucideIcon } from "lucide-react";
import { ShieldCheck } from "lucide-react";
import { HeaderLink, PageHeader } from "./PageHeader";

/** The operators' pages' PageHeader: the shield, the product's name over the page's title, a link to the other
 * operators' page, the theme and Logout. */
export function AdminHeader({
  appName,
  title,
  link,
  onLogout,
  loggingOut,
}: {
  appName: string;
  title: string;
  link: { to: string; label: string; icon: LucideIcon };
  onLogout: () => void;
  loggingOut: boolean;
}) {
  return (
    <PageHeader
      start={{ kind: "emblem", icon: <ShieldCheck className="h-6 w-6 text-indigo-500" aria-hidden="true" /> }}
      eyebrow={appName}
      title={title}
      actions={<HeaderLink {...link} />}
      onLogout={onLogout}
      loggingOut={loggingOut}
      width="7xl"
    />
  );
}
