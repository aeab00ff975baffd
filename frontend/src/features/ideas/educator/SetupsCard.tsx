import { Layers, Pencil, Plus, Trash2, X } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { errorMessage } from "../../../api/errors";
import { Button } from "../../../components/Button";
import { Card } from "../../../components/Card";
import { ErrorAlert } from "../../../components/ErrorAlert";
import { Input } from "../../../components/Input";
import { Label } from "../../../components/Label";
import { Spinner } from "../../../components/Spinner";
import { Textarea } from "../../../components/Textarea";
import { toast } from "../../../lib/notify";
import type { Setup } from "../api/types";
import { useCreateSetup } from "../api/useCreateSetup";
import { useDeleteSetup } from "../api/useDeleteSetup";
import { useMySetups } from "../api/useMySetups";
import { useUpdateSetup } from "../api/useUpdateSetup";

const NAME_MAX = 60;
const DESCRIPTION_MAX = 1000;

/** The name and description fields of a setup, for adding one or editing it in place. */
function SetupFields({
  idPrefix,
  name,
  description,
  onName,
  onDescription,
}: {
  idPrefix: string;
  name: string;
  description: string;
  onName: (value: string) => void;
  onDescription: (value: string) => void;
}) {
  return (
    <>
      <div>
        <Label htmlFor={`${idPrefix}-name`}>Setup name</Label>
        <Input
          id={`${idPrefix}-name`}
          value={name}
          maxLength={NAME_MAX}
          required
          autoComplete="off"
          placeholder="e.g. Breakout retest"
          onChange={(e) => onName(e.target.value)}
        />
      </div>
      <div>
        <Label htmlFor={`${idPrefix}-description`}>Description</Label>
        <Textarea
          id={`${idPrefix}-description`}
          rows={3}
          maxLength={DESCRIPTION_MAX}
          value={description}
          placeholder="One paragraph: what you wait for, where you enter, where it is wrong."
          onChange={(e) => onDescription(e.target.value)}
        />
      </div>
    </>
  );
}

function SetupRow({ setup }: { setup: Setup }) {
  const id = useId();
  const update = useUpdateSetup();
  const remove = useDeleteSetup();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(setup.name);
  const [description, setDescription] = useState(setup.description ?? "");

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (update.isPending) return;
    update.mutate(
      { id: setup.id, body: { name, description: description.trim() || null } },
      {
        onSuccess: () => {
          toast.success("Setup saved");
          setEditing(false);
        },
      },
    );
  };

  if (editing) {
    return (
      <li className="rounded-xl border border-line p-3">
        <form aria-label={`Edit ${setup.name}`} onSubmit={onSave} className="space-y-3">
          <SetupFields idPrefix={id} name={name} description={description} onName={setName} onDescription={setDescription} />
          {update.isError ? <ErrorAlert message={errorMessage(update.error, "Failed to save the setup")} /> : null}
          <div className="flex justify-end gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(false)} disabled={update.isPending}>
              <X className="h-4 w-4" aria-hidden="true" />
              Cancel
            </Button>
            <Button type="submit" size="sm" disabled={update.isPending || !name.trim()}>
              {update.isPending ? <Spinner className="h-4 w-4" /> : null}
              Save setup
            </Button>
          </div>
        </form>
      </li>
    );
  }
  return (
    <li className="rounded-xl border border-line p-3">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-fg">{setup.name}</p>
          {setup.description ? <p className="mt-1 whitespace-pre-line break-words text-sm text-muted">{setup.description}</p> : null}
          <p className="mt-1 text-xs text-muted">{setup.ideas === 1 ? "1 idea" : `${setup.ideas} ideas`}</p>
        </div>
        <Button variant="ghost" size="sm" aria-label={`Edit ${setup.name}`} onClick={() => setEditing(true)}>
          <Pencil className="h-4 w-4" aria-hidden="true" />
        </Button>
        {setup.ideas === 0 ? (
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Delete ${setup.name}`}
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(setup.id, {
                onSuccess: () => toast.success("Setup deleted"),
                onError: (error) => toast.error(errorMessage(error, "Failed to delete the setup")),
              })
            }
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </Button>
        ) : null}
      </div>
    </li>
  );
}

/**
 * The educator's setups on their profile: each idea names one of them (once there is any) and the record groups by
 * them. A setup that ideas name stays (it is part of their record) but can be renamed or described.
 */
export function SetupsCard() {
  const id = useId();
  const setups = useMySetups();
  const create = useCreateSetup();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");

  const onAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate(
      { name, description: description.trim() || null },
      {
        onSuccess: (setup) => {
          toast.success("Setup added", { description: setup.name });
          setName("");
          setDescription("");
        },
      },
    );
  };

  return (
    <Card>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <Layers className="h-5 w-5 text-muted" aria-hidden="true" />
        Setups
      </h2>
      <p className="mt-1 text-sm text-muted">
        The kinds of trade you take. Once you keep any, every new idea names one, and members see your record per setup.
      </p>
      {setups.isPending ? (
        <Spinner className="mt-4 h-5 w-5" />
      ) : setups.isError ? (
        <div className="mt-4">
          <ErrorAlert message={errorMessage(setups.error, "Failed to load your setups")} />
        </div>
      ) : setups.data.length === 0 ? (
        <p className="mt-4 text-sm text-muted">No setups yet.</p>
      ) : (
        <ul aria-label="Your setups" className="mt-4 space-y-2">
          {setups.data.map((setup) => (
            <SetupRow key={setup.id} setup={setup} />
          ))}
        </ul>
      )}
      <form aria-label="Add a setup" onSubmit={onAdd} className="mt-4 space-y-3 border-t border-line pt-4">
        <SetupFields idPrefix={id} name={name} description={description} onName={setName} onDescription={setDescription} />
        {create.isError ? <ErrorAlert message={errorMessage(create.error, "Failed to add the setup")} /> : null}
        <Button type="submit" disabled={create.isPending || !name.trim()}>
          {create.isPending ? <Spinner className="h-4 w-4" /> : <Plus className="h-4 w-4" aria-hidden="true" />}
          Add setup
        </Button>
      </form>
    </Card>
  );
}
