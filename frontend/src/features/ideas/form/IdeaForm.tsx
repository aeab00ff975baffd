import { AlertCircle, PencilLine, X } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { toast } from "../../../lib/notify";
import { ApiError, errorMessage } from "../../../api/errors";
import { Button } from "../../../components/Button";
import { cn } from "../../../components/cn";
import { Input } from "../../../components/Input";
import { Label } from "../../../components/Label";
import { SegmentedControl } from "../../../components/SegmentedControl";
import { Spinner } from "../../../components/Spinner";
import { Textarea } from "../../../components/Textarea";
import {
  EMPTY_IDEA_FORM,
  IDEA_TYPE_CHOICES,
  MARKET_TYPE_CHOICES,
  ORDER_TYPE_CHOICES,
  REASON_MAX,
  REQUIRED_FIELDS_MESSAGE,
  SETUP_REQUIRED_MESSAGE,
  missingIdeaFields,
  setupIdOf,
  pairPlaceholder,
  type IdeaFormValues,
  type RequiredIdeaField,
} from "../../../lib/ideaForm";
import { CHART_UPLOAD_WIDTH, photoProblem, resizeImage } from "../../../lib/photos";
import { Select } from "../../../components/Select";
import { PhotoPicker, type PhotoItem } from "./PhotoPicker";
import type { Idea, IdeaUpdate } from "../api/types";
import { useCreateIdea } from "../api/useCreateIdea";
import { useMySetups } from "../api/useMySetups";
import { useUpdateIdea } from "../api/useUpdateIdea";
import { IDENTITY_FIXED_MESSAGE, useMomentPassed } from "../api/useFixed";
import { useUploadMedia } from "../api/useUploadMedia";
import { VoiceNoteField, type VoiceNote } from "./VoiceNoteField";

const TEXT_FIELDS: Array<{ name: keyof IdeaFormValues & string; label: string; required?: boolean; placeholder?: string }> = [
  { name: "timeFrame", label: "Time Frame", required: true, placeholder: "e.g. 4H" },
  { name: "entry1", label: "Entry 1", required: true },
  { name: "entry2", label: "Entry 2" },
  { name: "invalidationLevel", label: "Invalidation Level", required: true },
  { name: "exit1", label: "Exit 1", required: true },
  { name: "exit2", label: "Exit 2" },
  { name: "exit3", label: "Exit 3" },
];

const EDITABLE: Array<keyof IdeaFormValues> = [
  "marketType", "orderType", "ideaType", "pair", "timeFrame", "entry1", "entry2",
  "invalidationLevel", "exit1", "exit2", "exit3", "notes", "videoUrl", "reason",
];

function valuesOf(idea: Idea): IdeaFormValues {
  return {
    marketType: idea.marketType,
    orderType: idea.orderType,
    ideaType: idea.ideaType,
    pair: idea.pair,
    timeFrame: idea.timeFrame,
    entry1: idea.entry1,
    entry2: idea.entry2 ?? "",
    invalidationLevel: idea.invalidationLevel,
    exit1: idea.exit1,
    exit2: idea.exit2 ?? "",
    exit3: idea.exit3 ?? "",
    notes: idea.notes ?? "",
    videoUrl: idea.videoUrl ?? "",
    setupId: idea.setupId === null ? "" : String(idea.setupId),
    reason: idea.reason ?? "",
  };
}

function voiceOf(idea: Idea | undefined): VoiceNote {
  return idea?.audioUrl ? { kind: "current", url: idea.audioUrl } : { kind: "none" };
}

function photosOf(idea: Idea | undefined): PhotoItem[] {
  if (!idea) return [];
  return idea.imageIds.map((mediaId, i) => ({ key: `m${mediaId}`, url: idea.imageUrls[i] ?? "", mediaId }));
}

let photoSeq = 0;

/**
 * Create / Edit Trade Idea. Mount with `key={editing?.id ?? "new"}` so switching the idea being
 * edited starts from its values. `educatorId` undefined means the user is not known yet.
 */
export function IdeaForm({
  educatorId,
  editing,
  onCancelEdit,
  onSaved,
}: {
  educatorId: number | undefined;
  editing?: Idea;
  onCancelEdit?: () => void;
  onSaved?: (idea: Idea) => void;
}) {
  const id = useId();
  const initial = editing ? valuesOf(editing) : EMPTY_IDEA_FORM;
  const [values, setValues] = useState<IdeaFormValues>(initial);
  const [photos, setPhotos] = useState<PhotoItem[]>(() => photosOf(editing));
  const [voice, setVoice] = useState<VoiceNote>(() => voiceOf(editing));
  const [processing, setProcessing] = useState(false);
  const [missing, setMissing] = useState<RequiredIdeaField[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [setupMissing, setSetupMissing] = useState(false);
  // Once the educator keeps any setup, every idea names one (the server says so too: a 422 naming setupId).
  const setups = useMySetups(educatorId !== undefined);
  const setupList = setups.data ?? [];
  const [uploading, setUploading] = useState(false);
  const create = useCreateIdea();
  const update = useUpdateIdea();
  const upload = useUploadMedia();
  const objectUrls = useRef(new Set<string>());

  useEffect(() => {
    const urls = objectUrls.current;
    return () => urls.forEach((u) => URL.revokeObjectURL(u));
  }, []);

  const mode = editing ? "edit" : "create";
  // 15 minutes after publishing, what the idea is (market, pair, direction, type, time frame, setup, reason) is fixed.
  const identityFixed = useMomentPassed(editing?.identityFixedAt ?? null);
  const busy = create.isPending || update.isPending || uploading;

  const set = <K extends keyof IdeaFormValues>(name: K, value: IdeaFormValues[K]) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (name === "setupId" && value !== "") setSetupMissing(false);
    if (missing.includes(name as RequiredIdeaField) && String(value).trim()) {
      setMissing((m) => m.filter((f) => f !== name));
    }
  };

  const reset = () => {
    photos.forEach((p) => {
      if (p.blob) {
        URL.revokeObjectURL(p.url);
        objectUrls.current.delete(p.url);
      }
    });
    setValues(EMPTY_IDEA_FORM);
    setPhotos([]);
    setVoice({ kind: "none" });
    setMissing([]);
    setSetupMissing(false);
    setPhotoError(null);
  };

  const addPhotos = async (files: File[]) => {
    const problem = photoProblem(photos.length, files);
    if (problem) {
      setPhotoError(problem);
      toast.error(problem);
      return;
    }
    setPhotoError(null);
    setProcessing(true);
    try {
      const added: PhotoItem[] = [];
      for (const file of files) {
        const blob = await resizeImage(file, { maxWidth: CHART_UPLOAD_WIDTH });
        const url = URL.createObjectURL(blob);
        objectUrls.current.add(url);
        added.push({ key: `n${++photoSeq}`, url, blob });
      }
      setPhotos((p) => [...p, ...added]);
    } catch (error) {
      const message = errorMessage(error, "Image processing failed, Please try a different image.");
      setPhotoError(message);
      toast.error(message);
    } finally {
      setProcessing(false);
    }
  };

  const removePhoto = (index: number) => {
    setPhotos((list) => {
      const removed = list[index];
      if (removed?.blob) {
        URL.revokeObjectURL(removed.url);
        objectUrls.current.delete(removed.url);
      }
      return list.filter((_, i) => i !== index);
    });
    setPhotoError(null);
  };

  const failTitle = mode === "edit" ? "Trade Idea Update Failed" : "Trade Idea Creation Failed";

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || educatorId === undefined) return;
    const blank = missingIdeaFields(values);
    setMissing(blank);
    const noSetup = setupList.length > 0 && values.setupId === "";
    setSetupMissing(noSetup);
    if (blank.length > 0) {
      toast.error(failTitle, { description: REQUIRED_FIELDS_MESSAGE });
      document.getElementById(`${id}-${blank[0]}`)?.focus();
      return;
    }
    if (noSetup) {
      toast.error(failTitle, { description: SETUP_REQUIRED_MESSAGE });
      document.getElementById(`${id}-setupId`)?.focus();
      return;
    }
    try {
      setUploading(true);
      const imageIds: number[] = [];
      for (const photo of photos) {
        if (photo.mediaId !== undefined) imageIds.push(photo.mediaId);
        else if (photo.blob) imageIds.push((await upload.mutateAsync(photo.blob)).id);
      }
      // undefined: keep the current voice note; null: none.
      const audioId = voice.kind === "new" ? (await upload.mutateAsync(voice.blob)).id : voice.kind === "none" ? null : undefined;
      setUploading(false);
      let saved: Idea;
      if (editing) {
        const before = valuesOf(editing);
        const body: IdeaUpdate = {};
        for (const key of EDITABLE) {
          if (values[key].trim() !== before[key].trim()) Object.assign(body, { [key]: values[key] });
        }
        if (values.setupId !== before.setupId) body.setupId = setupIdOf(values);
        if (imageIds.join(",") !== editing.imageIds.join(",")) body.imageIds = imageIds;
        if (audioId !== undefined && !(audioId === null && !editing.audioUrl)) body.audioId = audioId;
        saved = await update.mutateAsync({ id: editing.id, body });
      } else {
        saved = await create.mutateAsync({
          ...values,
          entry2: values.entry2 || null,
          exit2: values.exit2 || null,
          exit3: values.exit3 || null,
          notes: values.notes || null,
          videoUrl: values.videoUrl.trim() || null,
          setupId: setupIdOf(values),
          reason: values.reason.trim() || null,
          audioId: audioId ?? null,
          imageIds,
        });
      }
      toast.success("Success!", {
        description: mode === "edit" ? "Trade idea updated successfully" : "Trade idea created successfully",
      });
      reset();
      onSaved?.(saved);
    } catch (error) {
      setUploading(false);
      const text = error instanceof ApiError && error.message ? error.message : "Please check all required fields and try again";
      toast.error(failTitle, { description: text });
    }
  };

  const fieldId = (name: string) => `${id}-${name}`;
  const invalid = (name: string) => missing.includes(name as RequiredIdeaField);
  const submitLabel =
    educatorId === undefined
      ? "Loading..."
      : create.isPending || uploading
        ? mode === "edit" ? "Updating..." : "Creating..."
        : update.isPending
          ? "Updating..."
          : mode === "edit" ? "Update Trade Idea" : "Create Trade Idea";

  return (
    <form
      aria-label={mode === "edit" ? "Edit Trade Idea" : "Create Trade Idea"}
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      className="space-y-5"
    >
      {editing ? (
        <div role="status" className="flex items-center gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 px-4 py-3">
          <PencilLine className="h-5 w-5 shrink-0 text-amber-600 dark:text-amber-300" aria-hidden="true" />
          <div className="min-w-0 flex-1">
            <p className="font-semibold text-amber-800 dark:text-amber-200">Edit Mode</p>
            <p className="truncate text-sm text-muted">Editing {editing.pair}</p>
          </div>
          <Button variant="outline" size="sm" onClick={onCancelEdit} disabled={busy}>
            <X className="h-4 w-4" aria-hidden="true" />
            Cancel
          </Button>
        </div>
      ) : null}

      {identityFixed ? (
        <p role="note" className="rounded-xl border border-line bg-field px-3 py-2 text-sm text-muted">
          {IDENTITY_FIXED_MESSAGE} Levels, notes and media can still be edited.
        </p>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-3">
        <SegmentedControl
          legend="Market Type"
          disabled={identityFixed}
          name={`${id}-market`}
          value={values.marketType}
          onChange={(v) => set("marketType", v)}
          options={MARKET_TYPE_CHOICES}
        />
        <SegmentedControl
          legend="Order Type"
          disabled={identityFixed}
          name={`${id}-order`}
          value={values.orderType}
          onChange={(v) => set("orderType", v)}
          options={ORDER_TYPE_CHOICES}
        />
        <SegmentedControl
          legend="Idea Type"
          disabled={identityFixed}
          name={`${id}-type`}
          value={values.ideaType}
          onChange={(v) => set("ideaType", v)}
          options={IDEA_TYPE_CHOICES}
        />
      </div>

      <div className="grid grid-cols-2 gap-x-3 gap-y-4 sm:gap-x-4">
        <div className="col-span-2">
          <Label htmlFor={fieldId("pair")}>
            Pair <span aria-hidden="true" className="text-rose-500">*</span>
          </Label>
          <Input
            id={fieldId("pair")}
            value={values.pair}
            onChange={(e) => set("pair", e.target.value)}
            disabled={identityFixed}
            placeholder={pairPlaceholder(values.marketType)}
            autoCapitalize="characters"
            autoComplete="off"
            required
            aria-invalid={invalid("pair") || undefined}
            className={cn(invalid("pair") && "border-rose-500")}
          />
        </div>
        {TEXT_FIELDS.map((f) => (
          <div key={f.name}>
            <Label htmlFor={fieldId(f.name)}>
              {f.label} {f.required ? <span aria-hidden="true" className="text-rose-500">*</span> : null}
            </Label>
            <Input
              id={fieldId(f.name)}
              value={values[f.name]}
              onChange={(e) => set(f.name, e.target.value)}
              disabled={identityFixed && f.name === "timeFrame"}
              placeholder={f.placeholder ?? (f.required ? "" : "Optional")}
              autoComplete="off"
              inputMode={f.name === "timeFrame" ? "text" : "decimal"}
              required={f.required}
              aria-invalid={invalid(f.name) || undefined}
              className={cn(invalid(f.name) && "border-rose-500")}
            />
          </div>
        ))}
      </div>

      {setupList.length > 0 || values.setupId !== "" ? (
        <div>
          <Label htmlFor={fieldId("setupId")}>
            Setup <span aria-hidden="true" className="text-rose-500">*</span>
          </Label>
          <Select
            id={fieldId("setupId")}
            value={values.setupId}
            onChange={(e) => set("setupId", e.target.value)}
            disabled={identityFixed}
            required
            aria-invalid={setupMissing || undefined}
            aria-describedby={setupMissing ? fieldId("setupId-error") : undefined}
            className={cn(setupMissing && "border-rose-500")}
          >
            <option value="">Choose a setup</option>
            {setupList.map((setup) => (
              <option key={setup.id} value={String(setup.id)}>
                {setup.name}
              </option>
            ))}
            {values.setupId !== "" && !setupList.some((setup) => String(setup.id) === values.setupId) ? (
              <option value={values.setupId}>{editing?.setupName ?? "Current setup"}</option>
            ) : null}
          </Select>
          {setupMissing ? (
            <p id={fieldId("setupId-error")} role="alert" className="mt-1 text-sm text-rose-600 dark:text-rose-300">
              {SETUP_REQUIRED_MESSAGE}
            </p>
          ) : null}
        </div>
      ) : null}

      <div>
        <Label htmlFor={fieldId("reason")}>Why (the reason for this idea)</Label>
        <Textarea
          id={fieldId("reason")}
          rows={3}
          maxLength={REASON_MAX}
          value={values.reason}
          onChange={(e) => set("reason", e.target.value)}
          disabled={identityFixed}
          placeholder="What you saw that made you take it"
          aria-describedby={fieldId("reason-hint")}
        />
        <p id={fieldId("reason-hint")} className="mt-1 text-xs text-muted">
          Shown on the card as "Why: ...". Fixed with the pair 15 minutes after publishing.
        </p>
      </div>

      <div>
        <Label htmlFor={fieldId("notes")}>Notes</Label>
        <Textarea
          id={fieldId("notes")}
          rows={4}
          maxLength={5000}
          value={values.notes}
          onChange={(e) => set("notes", e.target.value)}
          placeholder="Reasoning, risk management, key levels..."
        />
      </div>

      <div>
        <Label htmlFor={fieldId("videoUrl")}>Video link</Label>
        <Input
          id={fieldId("videoUrl")}
          type="url"
          inputMode="url"
          value={values.videoUrl}
          onChange={(e) => set("videoUrl", e.target.value)}
          placeholder="https://www.youtube.com/watch?v=..."
          autoComplete="off"
          aria-describedby={fieldId("videoUrl-hint")}
        />
        <p id={fieldId("videoUrl-hint")} className="mt-1 text-xs text-muted">
          Optional, https only. YouTube and Vimeo links play on the card; other links open in a new tab.
        </p>
      </div>

      <VoiceNoteField value={voice} onChange={setVoice} disabled={busy} />

      <PhotoPicker photos={photos} onAdd={(files) => void addPhotos(files)} onRemove={removePhoto} processing={processing} disabled={busy} />
      {photoError ? (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-300">
          {photoError}
        </p>
      ) : null}

      {missing.length > 0 ? (
        <div role="alert" className="flex items-start gap-2 rounded-xl border border-rose-500/30 bg-rose-500/10 px-3.5 py-3 text-sm text-rose-600 dark:text-rose-300">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{REQUIRED_FIELDS_MESSAGE}</span>
        </div>
      ) : null}

      <Button type="submit" size="lg" className="w-full" disabled={busy || processing || educatorId === undefined}>
        {busy || educatorId === undefined ? <Spinner className="h-4 w-4" /> : null}
        {submitLabel}
      </Button>
    </form>
  );
}
