import { AlertCircle } from "lucide-react";
import { ApiError } from "../../api/errors";
import { useAppConfigValue } from "./useAppConfig";

const KEY = "auth.accountDisabled";

/** An answer saying the signed-in account was disabled (401 or 403 with code `account_disabled`). */
export function isAccountDisabled(error: unknown): boolean {
  return error instanceof ApiError && error.code === "account_disabled";
}

/** Remembered for this tab until the next sign-in, so /login can say why the session ended. */
export function rememberAccountDisabled(): void {
  try {
    sessionStorage.setItem(KEY, "1");
  } catch {
    // storage refused (private mode): the login page just shows no notice
  }
}

export function forgetAccountDisabled(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // nothing to forget
  }
}

export function accountWasDisabled(): boolean {
  try {
    return sessionStorage.getItem(KEY) === "1";
  } catch {
    return false;
  }
}

/** SUPPORT_CONTACT as a link: an e-mail address opens the mail app, a web address the page. */
export function SupportLink({ contact }: { contact: string }) {
  const web = /^https?:\/\//.test(contact);
  return (
    <a href={web ? contact : `mailto:${contact}`} className="font-semibold underline underline-offset-2" {...(web ? { target: "_blank", rel: "noreferrer" } : {})}>
      {contact}
    </a>
  );
}

/** "This account was disabled. Contact support at support@example.com." (the contact a link). */
export function AccountDisabledNotice({ was = true }: { was?: boolean }) {
  const { supportContact } = useAppConfigValue();
  return (
    <div role="alert" className="flex items-start gap-2 rounded-xl border border-rose-500/30 bg-rose-500/10 px-3.5 py-3 text-sm text-rose-600 dark:text-rose-300">
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        This account {was ? "was" : "is"} disabled.{" "}
        {supportContact ? (
          <>
            Contact support at <SupportLink contact={supportContact} />.
          </>
        ) : (
          "Contact support."
        )}
      </span>
    </div>
  );
}
