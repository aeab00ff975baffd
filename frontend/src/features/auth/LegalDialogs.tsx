import { Dialog, DialogClose } from "../../components/Dialog";
import { Button } from "../../components/Button";
import { LegalContent } from "./LegalContent";
import { PRIVACY_POLICY, TERMS_OF_USE, type LegalDocument } from "./legalText";

const linkClass =
  "font-semibold text-emerald-600 underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 rounded dark:text-emerald-400";

function LegalDialog({ doc }: { doc: LegalDocument }) {
  return (
    <Dialog
      title={doc.title}
      trigger={
        <button type="button" className={linkClass}>
          {doc.title}
        </button>
      }
      footer={
        <div className="flex justify-end">
          <DialogClose asChild>
            <Button size="sm">Close</Button>
          </DialogClose>
        </div>
      }
    >
      <LegalContent doc={doc} />
    </Dialog>
  );
}

export function TermsOfUseDialog() {
  return <LegalDialog doc={TERMS_OF_USE} />;
}

export function PrivacyPolicyDialog() {
  return <LegalDialog doc={PRIVACY_POLICY} />;
}
