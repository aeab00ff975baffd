import { Users } from "lucide-react";
import { Link } from "react-router";
import { Avatar } from "../../components/Avatar";
import { Card } from "../../components/Card";
import { EmptyState } from "../../components/EmptyState";
import { ErrorAlert } from "../../components/ErrorAlert";
import { Spinner } from "../../components/Spinner";
import { errorMessage } from "../../api/errors";
import { EquityChart } from "./EquityChart";
import { Figures, FollowersLine, PriceCheckedSummary } from "./Figures";
import { PageHeader } from "../../components/PageHeader";
import { useTrackRecords } from "./useTrackRecords";

function excerpt(text: string, words = 24): string {
  const parts = text.trim().split(/\s+/);
  return parts.length > words ? `${parts.slice(0, words).join(" ")}…` : text.trim();
}

/** /customer/educators: every educator with their whole record and a small equity curve. */
export function EducatorsPage() {
  const records = useTrackRecords();
  return (
    <div className="min-h-dvh bg-surface">
      <PageHeader start={{ kind: "back", to: "/customer/dashboard", label: "Markets" }} title="Educators" subtitle="Track records of every call, measured in R" />
      <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        {records.isPending ? (
          <div className="flex justify-center py-16">
            <Spinner className="h-6 w-6" />
          </div>
        ) : records.isError ? (
          <ErrorAlert message={errorMessage(records.error, "Failed to load track records")} />
        ) : records.data.length === 0 ? (
          <EmptyState icon={Users} title="No educators yet" />
        ) : (
          <ul className="grid gap-4 md:grid-cols-2">
            {records.data.map((record) => (
              <li key={record.educator.id}>
                <Card className="flex h-full flex-col gap-4 p-4 sm:p-5">
                  <article aria-label={`${record.educator.name} track record`} className="flex h-full flex-col gap-4">
                    <header className="flex items-start gap-3">
                      <Avatar name={record.educator.name} src={record.educator.avatarUrl} size="sm" className="h-12 w-12" />
                      <div className="min-w-0 flex-1">
                        <h2 className="text-lg font-bold text-fg">
                          <Link
                            to={`/customer/educators/${record.educator.slug}`}
                            className="-my-2.5 block truncate py-2.5 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-emerald-400 sm:my-0 sm:py-0"
                          >
                            {record.educator.name}
                          </Link>
                        </h2>
                        {record.educator.specialty ? <p className="text-sm text-muted">{record.educator.specialty}</p> : null}
                      </div>
                    </header>
                    {record.educator.bio ? <p className="text-sm text-fg">{excerpt(record.educator.bio)}</p> : null}
                    <Figures record={record} statistics={record.statistics} compact />
                    <PriceCheckedSummary record={record} />
                    <FollowersLine record={record} />
                    <EquityChart points={record.equityCurve} compact className="mt-auto h-16" />
                  </article>
                </Card>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
