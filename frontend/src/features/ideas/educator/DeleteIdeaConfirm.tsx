import { ConfirmDialog } from "../../../components/overlays/ConfirmDialog";

/** Why a completed idea's delete control is disabled (the server's words when it refuses). */
export const NOT_DELETABLE = "Completed ideas are part of the track record and cannot be deleted.";

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
