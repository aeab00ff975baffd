import { LogOut, User } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Spinner } from "../../components/Spinner";
import { BioField } from "./BioField";
import { MAX_NAME, type Profile } from "./types";
import { useProfile } from "./useProfile";
import { useUpdateProfile } from "./useUpdateProfile";

const FAILED = "Failed to update profile. Please try again.";

function ProfileDialogForm({ profile, onDone, onLogout, loggingOut }: { profile: Profile; onDone: () => void; onLogout: () => void; loggingOut: boolean }) {
  const id = useId();
  const update = useUpdateProfile();
  const [name, setName] = useState(() => `${profile.firstName} ${profile.lastName}`.trim() || profile.displayName);
  const [bio, setBio] = useState(profile.bio);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { displayName: name, bio },
      {
        onSuccess: () => {
          toast.success("Profile updated", { description: "Your profile and all associated content have been updated" });
          onDone();
        },
        onError: (error) => {
          console.error("Failed to update profile", error);
          toast.error(FAILED);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <div>
        <Label htmlFor={`${id}-name`}>Name</Label>
        <Input id={`${id}-name`} autoComplete="name" maxLength={MAX_NAME} value={name} onChange={(e) => setName(e.target.value)} />
      </div>
      <div>
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input id={`${id}-title`} value="Educator" readOnly aria-readonly="true" className="cursor-default text-muted" />
      </div>
      <BioField id={`${id}-bio`} value={bio} placeholder="Tell customers about yourself" onChange={setBio} />
      {update.isError ? <ErrorAlert message={`${FAILED} ${errorMessage(update.error, "")}`.trim()} /> : null}
      <div className="flex flex-wrap items-center justify-between gap-2 pt-2">
        <Link to="/educator/profile" className="text-sm font-medium text-emerald-600 underline-offset-2 hover:underline dark:text-emerald-400">
          View full profile
        </Link>
        <div className="flex gap-2">
          <Button variant="outline" onClick={onLogout} disabled={loggingOut}>
            <LogOut className="h-4 w-4" aria-hidden="true" />
            Logout
          </Button>
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? "Saving..." : "Save Profile"}
          </Button>
        </div>
      </div>
    </form>
  );
}

/** The educator dashboard's profile icon button and its dialog (Name, Title, Bio, Logout, Save Profile). */
export function ProfileDialog({ onLogout, loggingOut }: { onLogout: () => void; loggingOut: boolean }) {
  const [open, setOpen] = useState(false);
  const profile = useProfile();
  return (
    <Dialog
      title="Profile"
      open={open}
      onOpenChange={setOpen}
      className="max-w-lg"
      trigger={
        <button
          type="button"
          aria-label="Profile"
          className="inline-flex h-11 w-11 items-center sm:h-10 sm:w-10 justify-center rounded-xl border border-line bg-card text-muted transition-colors hover:text-fg focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400"
        >
          <User className="h-5 w-5" aria-hidden="true" />
        </button>
      }
    >
      {profile.data ? (
        <ProfileDialogForm profile={profile.data} onDone={() => setOpen(false)} onLogout={onLogout} loggingOut={loggingOut} />
      ) : profile.isError ? (
        <ErrorAlert message={errorMessage(profile.error, "Failed to fetch profile")} />
      ) : (
        <div role="status" className="flex items-center gap-2 py-6 text-muted">
          <Spinner className="text-emerald-500" />
          Loading profile...
        </div>
      )}
    </Dialog>
  );
}
