import { KeyRound } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { NewPasswordFields } from "../../components/NewPasswordFields";
import { useChangePassword } from "./useChangePassword";

export function PasswordCard() {
  const id = useId();
  const change = useChangePassword();
  const [currentPassword, setCurrentPassword] = useState("");
  const [newPassword, setNewPassword] = useState("");

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (change.isPending) return;
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: (response) => {
          toast.success("Password changed", { description: response.message });
          setCurrentPassword("");
          setNewPassword("");
        },
      },
    );
  };

  return (
    <Card>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <KeyRound className="h-5 w-5 text-muted" aria-hidden="true" />
        Password
      </h2>
      <form onSubmit={onSubmit} className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor={`${id}-current`}>Current password</Label>
          <Input
            id={`${id}-current`}
            type="password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.target.value)}
          />
        </div>
        <NewPasswordFields id={id} password={newPassword} onPassword={setNewPassword} />
        {change.isError ? <ErrorAlert className="sm:col-span-2" message={errorMessage(change.error, "Failed to change password")} /> : null}
        <div className="sm:col-span-2">
          <Button type="submit" variant="secondary" disabled={change.isPending || !currentPassword || !newPassword}>
            {change.isPending ? "Changing..." : "Change Password"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
