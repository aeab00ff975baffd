import { useState } from "react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { ConfirmDialog } from "../../components/overlays/ConfirmDialog";
import { toast } from "../../lib/notify";
import { LinkBox } from "./LinkBox";
import type { Member } from "./types";
import { currentResetLink, forgetResetLink, useCreatePasswordReset, type ResetLink } from "./useCreatePasswordReset";
import { useMemberAction, type MemberAction } from "./useMemberAction";

const DONE: Record<MemberAction, string> = {
  disable: "Member disabled: their sessions ended",
  enable: "Member enabled",
  "sign-out": "Member signed out everywhere",
};

/** Disable / enable, a password reset link and sign-out everywhere for one member. */
export function MemberActions({ member, isSelf }: { member: Member; isSelf: boolean }) {
  const action = useMemberAction();
  const reset = useCreatePasswordReset();
  const [resetOpen, setResetOpen] = useState(false);
  const [confirmingDisable, setConfirmingDisable] = useState(false);
  const [kept, setKept] = useState<ResetLink | null>(null);
  const who = member.email;
  const run = (kind: MemberAction) =>
    action.mutate(
      { action: kind, memberId: member.id },
      {
        onSuccess: () => {
          if (kind === "disable") forgetResetLink(member.id);
          toast.success(DONE[kind], { description: who });
        },
      },
    );
  const link = reset.data ?? kept;

  return (
    <div className="flex flex-wrap gap-1.5">
      {member.state === "disabled" ? (
        <Button size="sm" variant="outline" onClick={() => run("enable")} disabled={action.isPending} aria-label={`Enable ${who}`}>
          Enable
        </Button>
      ) : (
        <>
          <Button size="sm" variant="outline" onClick={() => setConfirmingDisable(true)} disabled={action.isPending || isSelf} aria-label={`Disable ${who}`}>
            Disable
          </Button>
          <ConfirmDialog
            open={confirmingDisable}
            onOpenChange={setConfirmingDisable}
            title={`Disable ${who}?`}
            description="Their sessions end now: they are signed out on every device and cannot log in, and their reset and invitation links stop working. Their data stays; Enable lets them back in."
            confirmLabel="Disable"
            danger
            onConfirm={() => run("disable")}
          />
        </>
      )}
      <Dialog
        title="Password reset link"
        description={`For ${who}. Using it ends every other session of this member.`}
        open={resetOpen}
        onOpenChange={(open) => {
          setResetOpen(open);
          if (!open) {
            reset.reset();
            return;
          }
          // The link made earlier stays valid until used or expired: show it again rather than replace it.
          const current = currentResetLink(member.id);
          setKept(current);
          if (!current) reset.mutate(member.id);
        }}
        trigger={
          <Button size="sm" variant="outline" disabled={member.state === "disabled"} aria-label={`Reset password of ${who}`}>
            Reset password
          </Button>
        }
      >
        {reset.isError ? <ErrorAlert message={errorMessage(reset.error, "Could not create the reset link")} /> : null}
        {link ? <LinkBox label="Reset link" url={link.resetUrl} expiresAt={link.expiresAt} /> : null}
        {link && !reset.isPending ? (
          <Button
            size="sm"
            variant="ghost"
            onClick={() => {
              setKept(null);
              reset.mutate(member.id);
            }}
          >
            Make a new link (the one above stops working)
          </Button>
        ) : null}
        {reset.isPending ? <p className="text-sm text-muted">Creating the link...</p> : null}
      </Dialog>
      <Button size="sm" variant="outline" onClick={() => run("sign-out")} disabled={action.isPending} aria-label={`Sign out everywhere: ${who}`}>
        Sign out everywhere
      </Button>
      {action.isError && action.variables?.memberId === member.id ? (
        <ErrorAlert className="w-full" message={errorMessage(action.error, "The action failed")} />
      ) : null}
    </div>
  );
}
