import { UserPlus } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { BulkInviteDialog } from "./BulkInviteDialog";
import { LinkBox } from "./LinkBox";
import { useInviteCustomer } from "./useInviteCustomer";

/** Invite one customer: the admin copies the link and sends it however they like. */
export function InviteCard() {
  const id = useId();
  const invite = useInviteCustomer();
  const [email, setEmail] = useState("");
  const [firstName, setFirstName] = useState("");
  const [lastName, setLastName] = useState("");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    invite.mutate(
      { email: email.trim(), firstName, lastName, complimentaryAccess: true },
      {
        onSuccess: () => {
          setEmail("");
          setFirstName("");
          setLastName("");
        },
      },
    );
  };

  return (
    <Card className="p-4 sm:p-5">
      <div className="mb-3 flex items-center justify-between gap-3">
        <h2 className="text-lg font-bold text-fg">Invite customers</h2>
        <BulkInviteDialog />
      </div>
      <form onSubmit={onSubmit} className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
        <div>
          <Label htmlFor={`${id}-email`}>E-mail</Label>
          <Input id={`${id}-email`} type="email" required autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-first`}>First name</Label>
          <Input id={`${id}-first`} autoComplete="off" value={firstName} onChange={(e) => setFirstName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor={`${id}-last`}>Last name</Label>
          <Input id={`${id}-last`} autoComplete="off" value={lastName} onChange={(e) => setLastName(e.target.value)} />
        </div>
        <Button type="submit" disabled={invite.isPending} className="h-12">
          <UserPlus className="h-4 w-4" aria-hidden="true" />
          Create invite link
        </Button>
      </form>
      {invite.isError ? <ErrorAlert className="mt-3" message={errorMessage(invite.error, "Could not create the invitation")} /> : null}
      {invite.data ? (
        <div className="mt-4 rounded-xl border border-emerald-500/30 bg-emerald-500/5 p-3">
          <p className="mb-2 text-sm text-fg">
            Invitation for <span className="font-semibold">{invite.data.member.email}</span> created. Send this link to them:
          </p>
          <LinkBox label="Invitation link" url={invite.data.inviteUrl} expiresAt={invite.data.expiresAt} />
        </div>
      ) : null}
    </Card>
  );
}
