import { Input } from "./Input";
import { Label } from "./Label";

/** The password rule every form states (the server refuses shorter ones). */
export const MIN_PASSWORD_LENGTH = 8;

type Props = {
  /** The form's `useId()`: the inputs are `${id}-new` and `${id}-repeat`. */
  id: string;
  password: string;
  onPassword: (value: string) => void;
  /** With a repeat field (choosing a first password, or a reset); without it, as on the profile. */
  repeat?: { value: string; onChange: (value: string) => void };
};

/** "New password" with its rule, and "Repeat password" where the form asks for it. */
export function NewPasswordFields({ id, password, onPassword, repeat }: Props) {
  return (
    <>
      <div>
        <Label htmlFor={`${id}-new`}>New password</Label>
        <Input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          value={password}
          onChange={(e) => onPassword(e.target.value)}
        />
        <p className="mt-1 text-xs text-muted">At least {MIN_PASSWORD_LENGTH} characters.</p>
      </div>
      {repeat ? (
        <div>
          <Label htmlFor={`${id}-repeat`}>Repeat password</Label>
          <Input
            id={`${id}-repeat`}
            type="password"
            autoComplete="new-password"
            required
            value={repeat.value}
            onChange={(e) => repeat.onChange(e.target.value)}
          />
        </div>
      ) : null}
    </>
  );
}
