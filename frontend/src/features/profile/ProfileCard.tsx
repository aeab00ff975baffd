import { Camera, Mail, Pencil, Trash2 } from "lucide-react";
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { toast } from "../../lib/notify";
import { errorMessage } from "../../api/errors";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Input } from "../../components/Input";
import { Label } from "../../components/Label";
import { Select } from "../../components/Select";
import { photoProblem, resizeImage } from "../../lib/photos";
import {
  MAX_NAME,
  MAX_YEARS,
  MIN_YEARS,
  parseYears,
  SPECIALTIES,
  TIMEZONES,
  timezoneOf,
  TRADING_STYLES,
  tradingStyleOf,
  type Profile,
  type ProfileUpdate,
} from "./types";
import { BioField } from "./BioField";
import { useDeleteAvatar } from "./useDeleteAvatar";
import { useUpdateProfile } from "./useUpdateProfile";
import { useUploadAvatar } from "./useUploadAvatar";

type AvatarChange = { kind: "keep" } | { kind: "remove" } | { kind: "upload"; file: File; url: string };

interface Draft {
  firstName: string;
  lastName: string;
  bio: string;
  specialty: string;
  tradingInterests: string;
  yearsExperience: string;
  tradingStyle: string;
  timezone: string;
  avatar: AvatarChange;
}

function draftOf(profile: Profile): Draft {
  return {
    firstName: profile.firstName,
    lastName: profile.lastName,
    bio: profile.bio,
    specialty: profile.specialty ?? "",
    tradingInterests: profile.tradingInterests ?? profile.specialty ?? "",
    yearsExperience: String(profile.yearsExperience),
    tradingStyle: profile.tradingStyle ?? "",
    timezone: profile.timezone ?? "",
    avatar: { kind: "keep" },
  };
}

function fullName(profile: Pick<Profile, "firstName" | "lastName" | "displayName">) {
  return `${profile.firstName} ${profile.lastName}`.trim() || profile.displayName;
}

function Detail({ term, children, className }: { term: string; children: string; className?: string }) {
  return (
    <div className={className}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted">{term}</dt>
      <dd className="mt-1 whitespace-pre-wrap break-words text-sm text-fg">{children}</dd>
    </div>
  );
}

/** The profile: view mode with Edit Profile, edit mode with Save and Cancel. */
export function ProfileCard({ profile }: { profile: Profile }) {
  const id = useId();
  const isEducator = profile.role === "educator";
  const update = useUpdateProfile();
  const uploadAvatar = useUploadAvatar();
  const deleteAvatar = useDeleteAvatar();
  const fileInput = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saving = update.isPending || uploadAvatar.isPending || deleteAvatar.isPending;

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => (d ? { ...d, [key]: value } : d));

  const setAvatar = (avatar: AvatarChange) => {
    if (draft?.avatar.kind === "upload") URL.revokeObjectURL(draft.avatar.url);
    set("avatar", avatar);
  };

  const stopEditing = () => {
    if (draft?.avatar.kind === "upload") URL.revokeObjectURL(draft.avatar.url);
    setDraft(null);
    setError(null);
  };

  const onPickAvatar = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const problem = photoProblem(0, [file]);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setAvatar({ kind: "upload", file, url: URL.createObjectURL(file) });
  };

  const onSave = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft || saving) return;
    setError(null);
    const body: ProfileUpdate = {
      firstName: draft.firstName,
      lastName: draft.lastName,
      bio: draft.bio,
      yearsExperience: parseYears(draft.yearsExperience),
      tradingStyle: tradingStyleOf(draft.tradingStyle),
      timezone: timezoneOf(draft.timezone),
      ...(isEducator ? { specialty: draft.specialty || null } : { tradingInterests: draft.tradingInterests }),
    };
    try {
      await update.mutateAsync(body);
      if (draft.avatar.kind === "upload") await uploadAvatar.mutateAsync(await resizeImage(draft.avatar.file));
      if (draft.avatar.kind === "remove") await deleteAvatar.mutateAsync();
      toast.success("Profile saved", { description: "Your profile has been saved successfully." });
      stopEditing();
    } catch (cause) {
      setError(errorMessage(cause, "Failed to update profile"));
    }
  };

  const name = draft ? `${draft.firstName} ${draft.lastName}`.trim() || profile.displayName : fullName(profile);
  const avatarSrc = draft?.avatar.kind === "upload" ? draft.avatar.url : draft?.avatar.kind === "remove" ? null : profile.avatarUrl;
  const roleLabel = isEducator ? "Educator" : "Customer";

  const header = (
    <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-left">
      <Avatar name={name} src={avatarSrc} />
      <div className="min-w-0 flex-1">
        <p className="truncate text-xl font-bold text-fg">{name}</p>
        <p className="mt-1 inline-flex max-w-full items-center gap-1.5 text-sm text-muted">
          <Mail className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="truncate">{profile.email}</span>
        </p>
        <p className="mt-2">
          <span className="inline-flex rounded-full bg-emerald-500/15 px-2.5 py-0.5 text-xs font-semibold text-emerald-600 dark:text-emerald-300">
            {roleLabel}
          </span>
          {profile.specialty ? <span className="ml-2 text-sm text-muted">{profile.specialty}</span> : null}
        </p>
      </div>
      {!draft ? (
        <Button variant="secondary" onClick={() => setDraft(draftOf(profile))}>
          <Pencil className="h-4 w-4" aria-hidden="true" />
          Edit Profile
        </Button>
      ) : null}
    </div>
  );

  if (!draft) {
    return (
      <Card>
        {header}
        <dl className="mt-6 grid gap-5 border-t border-line pt-5 sm:grid-cols-2">
          <Detail term="Bio" className="sm:col-span-2">
            {profile.bio || "No bio yet."}
          </Detail>
          {isEducator ? (
            <Detail term="Specialty">{profile.specialty || "Not set"}</Detail>
          ) : (
            <Detail term="Trading Interests">{profile.tradingInterests || profile.specialty || "Not set"}</Detail>
          )}
          {/* Educators read these in the Trading Profile card below. */}
          {isEducator ? null : (
            <>
              <Detail term="Years of Experience">{String(profile.yearsExperience)}</Detail>
              <Detail term="Trading Style">{profile.tradingStyle || "Not set"}</Detail>
            </>
          )}
          <Detail term="Timezone">{profile.timezone || "Not set"}</Detail>
        </dl>
      </Card>
    );
  }

  const hasImage = avatarSrc !== null && avatarSrc !== undefined;

  return (
    <Card>
      {header}
      <form onSubmit={(e) => void onSave(e)} noValidate className="mt-6 space-y-5 border-t border-line pt-5">
        <div className="flex flex-wrap items-center gap-2">
          <input ref={fileInput} type="file" accept="image/*" className="hidden" tabIndex={-1} aria-label="Profile photo" onChange={onPickAvatar} />
          <Button variant="outline" size="sm" onClick={() => fileInput.current?.click()} disabled={saving}>
            <Camera className="h-4 w-4" aria-hidden="true" />
            {hasImage ? "Change photo" : "Upload photo"}
          </Button>
          {hasImage ? (
            <Button variant="ghost" size="sm" onClick={() => setAvatar({ kind: "remove" })} disabled={saving}>
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Remove photo
            </Button>
          ) : null}
          <span className="text-xs text-muted">Images only, under 10MB.</span>
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor={`${id}-first`}>First name</Label>
            <Input id={`${id}-first`} autoComplete="given-name" maxLength={MAX_NAME} value={draft.firstName} onChange={(e) => set("firstName", e.target.value)} />
          </div>
          <div>
            <Label htmlFor={`${id}-last`}>Last name</Label>
            <Input id={`${id}-last`} autoComplete="family-name" maxLength={MAX_NAME} value={draft.lastName} onChange={(e) => set("lastName", e.target.value)} />
          </div>
        </div>

        <BioField id={`${id}-bio`} value={draft.bio} placeholder="Tell others about yourself" onChange={(bio) => set("bio", bio)} />

        <div className="grid gap-4 sm:grid-cols-2">
          {isEducator ? (
            <div>
              <Label htmlFor={`${id}-specialty`}>Specialty</Label>
              <Select id={`${id}-specialty`} value={draft.specialty} onChange={(e) => set("specialty", e.target.value)}>
                <option value="">Select a specialty</option>
                {SPECIALTIES.map((option) => (
                  <option key={option}>{option}</option>
                ))}
              </Select>
            </div>
          ) : (
            <div>
              <Label htmlFor={`${id}-interests`}>Trading Interests</Label>
              <Input
                id={`${id}-interests`}
                maxLength={100}
                placeholder="e.g. Forex, Bitcoin"
                value={draft.tradingInterests}
                onChange={(e) => set("tradingInterests", e.target.value)}
              />
            </div>
          )}
          <div>
            <Label htmlFor={`${id}-years`}>Years of Experience</Label>
            <Input
              id={`${id}-years`}
              type="number"
              inputMode="numeric"
              min={MIN_YEARS}
              max={MAX_YEARS}
              value={draft.yearsExperience}
              onChange={(e) => set("yearsExperience", e.target.value)}
            />
          </div>
          <div>
            <Label htmlFor={`${id}-style`}>Trading Style</Label>
            <Select id={`${id}-style`} value={draft.tradingStyle} onChange={(e) => set("tradingStyle", e.target.value)}>
              <option value="">Select a trading style</option>
              {TRADING_STYLES.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </Select>
          </div>
          <div>
            <Label htmlFor={`${id}-tz`}>Timezone</Label>
            <Select id={`${id}-tz`} value={draft.timezone} onChange={(e) => set("timezone", e.target.value)}>
              <option value="">Select a timezone</option>
              {TIMEZONES.map((option) => (
                <option key={option}>{option}</option>
              ))}
            </Select>
          </div>
        </div>

        {error ? <ErrorAlert message={error} /> : null}

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="outline" onClick={stopEditing} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save"}
          </Button>
        </div>
      </form>
    </Card>
  );
}
