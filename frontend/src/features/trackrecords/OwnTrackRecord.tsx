import { Link } from "react-router";
import { Card } from "../../components/Card";
import { Figures } from "./Figures";
import { useTrackRecords } from "./useTrackRecords";

/** The educator's own record on their dashboard (figures only: the chart library stays off this screen). */
export function OwnTrackRecord({ educatorId }: { educatorId: number }) {
  const records = useTrackRecords();
  const mine = records.data?.find((r) => r.educator.id === educatorId);
  if (!mine) return null;
  return (
    <Card className="space-y-3 p-4 sm:p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-bold text-fg">Your track record</h2>
        {mine.educator.slug ? (
          <Link to={`/customer/educators/${mine.educator.slug}`} className="inline-flex min-h-11 items-center text-sm font-medium text-emerald-600 hover:underline sm:min-h-0 dark:text-emerald-400">
            Public page
          </Link>
        ) : null}
      </div>
      <Figures record={mine} compact />
      {mine.deletedAfterPublish ? <p className="text-sm text-muted">Deleted after publishing: {mine.deletedAfterPublish}</p> : null}
    </Card>
  );
}
