import { Upload, Users } from "lucide-react";
import { useId, useState, type ChangeEvent, type FormEvent } from "react";
import { errorMessage } from "../../api/errors";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Label } from "../../components/Label";
import { Textarea } from "../../components/Textarea";
import { useBulkInvite } from "./useBulkInvite";

/** Paste or upload CSV lines (e-mail,first name,last name): one link per row, or every row's problem. */
export function BulkInviteDialog() {
  const id = useId();
  const bulk = useBulkInvite();
  const [csv, setCsv] = useState("");

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setCsv(await file.text());
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    bulk.mutate(csv);
  };
  const result = bulk.data;

  return (
    <Dialog
      title="Invite many customers"
      description="One customer per line: e-mail,first name,last name. Nothing is created while any line has an error."
      trigger={
        <Button variant="outline" size="sm" className="shrink-0 whitespace-nowrap">
          <Users className="h-4 w-4" aria-hidden="true" />
          Invite many
        </Button>
      }
    >
      <form onSubmit={onSubmit} className="space-y-3">
        <div>
          <Label htmlFor={`${id}-csv`}>CSV lines</Label>
          <Textarea
            id={`${id}-csv`}
            rows={6}
            placeholder={"ann@example.com,Ann,Lee\nbo@example.com,Bo,"}
            value={csv}
            onChange={(e) => setCsv(e.target.value)}
            className="font-mono text-sm"
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <label htmlFor={`${id}-file`} className="inline-flex cursor-pointer items-center gap-1.5 text-sm font-semibold text-emerald-600 dark:text-emerald-400">
            <Upload className="h-4 w-4" aria-hidden="true" />
            Upload a CSV file
          </label>
          <input id={`${id}-file`} type="file" accept=".csv,text/csv,text/plain" className="sr-only" onChange={(e) => void onFile(e)} />
          <Button type="submit" className="ml-auto" disabled={bulk.isPending || !csv.trim()}>
            Create invite links
          </Button>
        </div>
      </form>
      {bulk.isError ? <ErrorAlert className="mt-3" message={errorMessage(bulk.error, "Could not create the invitations")} /> : null}
      {result ? (
        <div className="mt-4 space-y-2">
          {result.message ? <ErrorAlert message={result.message} /> : <p className="text-sm text-fg">{result.rows.length} invitations created.</p>}
          <ul className="divide-y divide-line rounded-xl border border-line text-sm">
            {result.rows.map((row) => (
              <li key={row.line} className="flex flex-col gap-1 px-3 py-2">
                <span className="font-semibold text-fg">
                  Line {row.line}: {row.email || "(empty)"}
                </span>
                {row.error ? <span className="text-rose-600 dark:text-rose-300">{row.error}</span> : null}
                {row.inviteUrl ? <span className="break-all font-mono text-xs text-muted">{row.inviteUrl}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Dialog>
  );
}
