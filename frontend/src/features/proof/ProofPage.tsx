import { ShieldCheck } from "lucide-react";
import { Card } from "../../components/Card";
import { ErrorAlert } from "../../components/ErrorAlert";
import { HomeHeader } from "../../components/HomeHeader";
import { Spinner } from "../../components/Spinner";
import { CopyButton } from "../../components/CopyButton";
import { useProof, type DayFingerprint, type Proof, type Timestamp } from "./useProof";

/** How many days' fingerprints the page lists in full (the API has every day). */
const SHOWN_DAYS = 14;

/** The verifier's command line with this site's real address. */
function verifyCommand(): string {
  return `TRADEIDEAS_PASSWORD=… python3 verify_ledger.py ${window.location.origin} --email you@example.com`;
}

function Fingerprint({ hash }: { hash: string }) {
  // All 64 characters, wrapped anywhere: a shortened hash proves nothing.
  return <code className="block break-all font-mono text-xs leading-5 text-fg sm:text-sm">{hash}</code>;
}

/** Today's date in UTC, as the ledger's days are named. */
function utcToday(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The authority's time as the page states it: "01:00:04 UTC". */
function utcTime(at: string): string {
  return `${new Date(at).toISOString().slice(11, 19)} UTC`;
}

/** "Time-stamped by freetsa.org at 01:00:04 UTC", with the authority's token (DER) to download. */
function TimestampLine({ stamp, label }: { stamp: Timestamp; label: string }) {
  const day = new Date(stamp.at).toISOString().slice(0, 10);
  const file = `ledger-${stamp.seq}-${stamp.authority}.tst`;
  return (
    <li className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted">
      <span title={`${day} ${utcTime(stamp.at)}, entry #${stamp.seq}`}>
        Time-stamped by {stamp.authority} at {utcTime(stamp.at)}
      </span>
      <a
        href={`data:application/octet-stream;base64,${stamp.token}`}
        download={file}
        aria-label={`Download the time-stamp token of ${label} by ${stamp.authority}`}
        // A flex item is a box, not a link in a sentence: a finger's 44 px target on phones.
        className="-my-3 inline-flex min-h-11 min-w-11 items-center justify-center font-semibold text-emerald-600 underline sm:my-0 sm:min-h-0 sm:min-w-0"
      >
        token
      </a>
    </li>
  );
}

function Timestamps({ stamps, label }: { stamps: Timestamp[]; label: string }) {
  if (stamps.length === 0) return null;
  return (
    <ul aria-label={`Time-stamps of ${label}`} className="space-y-0.5">
      {stamps.map((stamp) => (
        <TimestampLine key={`${stamp.authority}-${stamp.seq}`} stamp={stamp} label={label} />
      ))}
    </ul>
  );
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
      <div className="flex items-start gap-2">
        <Fingerprint hash={day.hash} />
        <CopyButton label={`fingerprint of ${day.date}`} value={day.hash} />
      </div>
      <Timestamps stamps={day.timestamps ?? []} label={`the fingerprint of ${day.date}`} />
    </li>
  );
}

function VerifierDownload({ verifier }: { verifier: Proof["verifier"] }) {
  return (
    <span className="mt-2 block space-y-1">
      <a href={verifier.url} download="verify_ledger.py" className="font-semibold text-emerald-600 underline">
        Download verify_ledger.py
      </a>
      <span className="block text-xs">
        SHA-256: <code className="break-all font-mono text-fg">{verifier.sha256}</code>
      </span>
    </span>
  );
}

/** /proof: the public page on the ledger: the latest fingerprints, what they prove and how to check them. */
export function ProofPage() {
  const proof = useProof();
  const today = utcToday();
  const command = verifyCommand();
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
          <p className="text-sm text-muted">
            Every finished day&apos;s fingerprint, and the latest entry every hour, is also time-stamped by independent
            time-stamp authorities (RFC 3161): each signs the hash with the time it saw it. Keep a token and anyone can
            show that the record up to that entry existed then, exactly as it is now.
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
                <Timestamps stamps={proof.data.timestamps ?? []} label="the latest time-stamped entry" />
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
              Or run our verifier, which needs nothing but Python&apos;s standard library (read it first — it is short).
              It also checks every published fingerprint against the chain, every idea we serve against the ledger and
              each educator&apos;s headline figures.
              {proof.data && <VerifierDownload verifier={proof.data.verifier} />}
              <span className="mt-2 flex items-start gap-2">
                <code className="block flex-1 break-all rounded-lg bg-surface p-2 font-mono text-xs text-fg">{command}</code>
                <CopyButton label="command" value={command} />
              </span>
            </li>
            <li>
              To check a time-stamp token by hand, save the hash it covers (the fingerprint, without a line break) to a
              file and run{" "}
              <code className="break-all font-mono text-fg">
                openssl ts -verify -data hash.txt -in token.tst -token_in -CAfile authority-ca.pem
              </code>
              . The verifier checks every token against the chain as it stands now.
            </li>
            <li>
              If a recomputed hash differs, a fingerprint you kept is no longer in the chain, or a time-stamp no longer
              matches the entry it was made for, the record was changed.
            </li>
          </ol>
        </Card>
      </main>
    </div>
  );
}
