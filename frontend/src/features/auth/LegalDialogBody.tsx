import { Button } from "../../components/Button";
import { Dialog, DialogClose } from "../../components/Dialog";
import { LegalContent } from "./LegalContent";
import { PRIVACY_POLICY, TERMS_OF_USE } from "./legalText";

/** Terms of Use / Privacy Policy in a modal dialog (loaded on demand by LegalDialogs). */
export function LegalDialogBody({ kind, open, onOpenChange }: { kind: "terms" | "privacy"; open: boolean; onOpenChange: (open: boolean) => void }) {
  const doc = kind === "terms" ? TERMS_OF_USE : PRIVACY_POLICY;
  return (
    <Dialog
      title={doc.title}
      open={open}
      onOpenChange={onOpenChange}
      footer={
        <div className="flex justify-end">
          <DialogClose>
            <Button size="sm">Close</Button>
          </DialogClose>
        </div>
      }
    >
      <LegalContent doc={doc} />
    </Dialog>
  );
}
