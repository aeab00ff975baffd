import { useState } from "react";
import { errorMessage } from "../../api/errors";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Spinner } from "../../components/Spinner";
import { auditSentence } from "./auditSentence";
import { Pager } from "./Pager";
import { useAuditLog } from "./useAuditLog";

function AuditLine({ entry }: { entry: Parameters<typeof auditSentence>[0] }) {
  const { sentence, note } = auditSentence(entry);
  return (
    <span className="min-w-0 break-words text-fg">
      {sentence}
      {note ? <span className="block text-xs text-muted">{note}</span> : null}
    </span>
  );
}

/** The append-only audit log: who did what to whom and when, newest first. */
export function AuditLogCard() {
  const [page, setPage] = useState(1);
  const audit = useAuditLog(page);
  return (
    <Card className="p-4 sm:p-5">
      <h2 className="mb-3 text-lg font-bold text-fg">Audit log</h2>
      {audit.isError ? <ErrorAlert message={errorMessage(audit.error, "Could not load the audit log")} /> : null}
      {audit.isPending ? <Spinner className="mx-auto h-6 w-6" /> : null}
      {audit.data ? (
        <>
          <ol className="divide-y divide-line text-sm" aria-label="Audit entries">
            {audit.data.items.map((entry) => (
              <li key={entry.id} className="grid gap-0.5 py-2.5 sm:grid-cols-[11rem_1fr]">
                <time dateTime={entry.createdAt} className="text-muted">
                  {new Date(entry.createdAt).toLocaleString()}
                </time>
                <AuditLine entry={entry} />
              </li>
            ))}
          </ol>
          {audit.data.items.length === 0 ? <p className="py-6 text-center text-sm text-muted">Nothing recorded yet.</p> : null}
          <Pager label="Audit log pages" page={page} pageSize={audit.data.pageSize} total={audit.data.total} onPage={setPage} />
        </>
      ) : null}
    </Card>
  );
}
