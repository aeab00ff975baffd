import { ShieldCheck } from "lucide-react";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { HomeHeader } from "../../components/HomeHeader";
import { Spinner } from "../../components/Spinner";
import { useProof, type DayFingerprint } from "./useProof";

/** How many days' fingerprints the page lists in full (the API has every day). */
const SHOWN_DAYS = 14;

const VERIFY_COMMAND = "TRADEIDEAS_PASSWORD=… python3 tools/verify_ledger.py https://this-site --email you@example.com";

function Fingerprint({ hash }: { hash: string }) {
  // All 64 characters, wrapped anywhere: a shortened hash proves nothing.
  return <code className="block break-all font-mono text-xs leading-5 text-fg sm:text-sm">{hash}</code>;
}

/** Today's date in UTC, as the ledger's days are named. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

function DayRow({ day, today }: { day: DayFingerprint; today: boolean }) {
  return (
    <li className="space-y-1 border-t border-line py-3 first:border-t-0">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 text-sm">
        <span>
          <span className="font-semibold text-fg">{day.date}</span>
          {today && <span className="ml-2 text-muted">today, final at midnight UTC</span>}
        </span>
        <span className="text-muted">
          entries {day.firstSeq}–{day.lastSeq} ({day.entries})
        </span>
      </div>
      <Fingerprint hash={day.hash} />
    </li>
  );
}

/** /proof: the public page on the ledger: the latest fingerprints, what they prove and how to check them. */
export function ProofPage() {
  const proof = useProof();
  const today = utcToday();
  return (
    <div className="min-h-dvh bg-surface">
      <HomeHeader />
      <main className="mx-auto max-w-3xl space-y-6 px-4 py-8">
        <div className="flex items-start gap-3">
          <ShieldCheck className="mt-1 h-7 w-7 shrink-0 text-emerald-500" aria-hidden="true" />
          <h1 className="text-2xl font-bold text-fg sm:text-3xl">How we keep the record honest</h1>
        </div>

        <Card className="space-y-3">
          <h2 className="text-lg font-semibold text-fg">What is recorded</h2>
          <p className="text-sm text-muted">
            Every change that shapes an educator&apos;s track record — publishing an idea, editing its levels, recording
            or correcting its result, deleting it — is written to an append-only ledger in the same step as the change
            itself, and so is each step of the independent check of the idea against market prices. Each entry holds
            the idea&apos;s levels, status and outcome after the change, and the hash of the entry before it, so no
            entry can be edited, removed or slipped in later without changing every hash after it.
          </p>
        </Card>

        <Card className="space-y-3" aria-labelledby="latest-heading">
          <h2 id="latest-heading" className="text-lg font-semibold text-fg">
            Latest fingerprints
          </h2>
          <p className="text-sm text-muted">
            A day&apos;s fingerprint is the hash of its last entry (UTC). Entries are dated when they are recorded, so
            once a day is over its fingerprint never changes. Each finished day&apos;s fingerprint is also posted to our
            messaging channel, where we cannot change it afterwards. If you keep one, it proves that everything
            recorded up to then is still exactly as it was.
          </p>
          {proof.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-muted">
              <Spinner />
              Loading fingerprints...
            </p>
          ) : proof.isError ? (
            <ErrorAlert message={proof.error.message} />
          ) : (
            <>
              <div className="rounded-xl bg-surface p-3">
                <p className="text-sm font-semibold text-fg">
                  Latest entry: #{proof.data.head.seq}
                </p>
                <Fingerprint hash={proof.data.head.hash} />
              </div>
              {proof.data.days.length === 0 ? (
                <p className="text-sm text-muted">Nothing has been recorded yet.</p>
              ) : (
                <ul aria-label="Daily fingerprints">
                  {proof.data.days.slice(0, SHOWN_DAYS).map((day) => (
                    <DayRow key={day.date} day={day} today={day.date === today} />
                  ))}
                </ul>
              )}
            </>
          )}
        </Card>

        <Card className="space-y-3">
          <h2 className="text-lg font-semibold text-fg">How to check it yourself</h2>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-muted">
            <li>
              Note a fingerprint from this page or from the channel, with its date. Anyone can read{" "}
              <code className="font-mono text-fg">/api/proof</code> without signing in.
            </li>
            <li>
              As a member, download the ledger from <code className="font-mono text-fg">/api/proof/ledger</code>. For
              every entry, compute SHA-256 of the previous entry&apos;s hash, a line break, and the entry without its
              hash as canonical JSON (RFC 8785: keys sorted, no spaces, UTF-8; every number in the payload is a
              string). The first entry follows 64 zeros.
            </li>
            <li>
              Or run our verifier, which needs nothing but Python&apos;s standard library (read it first — it is short):
              <code className="mt-2 block break-all rounded-lg bg-surface p-2 font-mono text-xs text-fg">{VERIFY_COMMAND}</code>
            </li>
            <li>If a recomputed hash differs, or a fingerprint you kept is no longer in the chain, the record was changed.</li>
          </ol>
        </Card>
      </main>
    </div>
  );
}
