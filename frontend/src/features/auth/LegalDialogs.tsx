import { Suspense, lazy, useState } from "react";

const linkClass =
  "inline-flex min-h-11 items-center align-middle font-semibold text-emerald-600 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 rounded dark:text-emerald-400 sm:min-h-0";

/** The dialog code loads on the first click, so the login page's first download stays small. */
const LegalDialogBody = lazy(async () => ({ default: (await import("./LegalDialogBody")).LegalDialogBody }));

function LegalDialog({ kind, title }: { kind: "terms" | "privacy"; title: string }) {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  return (
    <>
      <button
        type="button"
        className={linkClass}
        aria-haspopup="dialog"
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        {title}
      </button>
      {requested ? (
        <Suspense fallback={null}>
          <LegalDialogBody kind={kind} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}

export function TermsOfUseDialog() {
  return <LegalDialog kind="terms" title="Terms of Use" />;
}

export function PrivacyPolicyDialog() {
  return <LegalDialog kind="privacy" title="Privacy Policy" />;
}
