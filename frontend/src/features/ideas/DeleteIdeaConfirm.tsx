import { ConfirmDialog } from "../../components/overlays/ConfirmDialog";

/** The spec's "Delete Trade Idea" confirmation, for every educator view of a card. */
export function DeleteIdeaConfirm({ open, onOpenChange, onConfirm }: { open: boolean; onOpenChange: (open: boolean) => void; onConfirm: () => void }) {
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete Trade Idea"
      description="Are you sure you want to delete this trade idea?"
      confirmLabel="Delete"
      danger
      onConfirm={onConfirm}
    />
  );
}
