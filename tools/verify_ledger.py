#!/usr/bin/env python3
"""Check the trade-ideas ledger without trusting the server's code: standard library only.

    python3 tools/verify_ledger.py https://ideas.example.com --email you@example.com

The password comes from TRADEIDEAS_PASSWORD or a prompt. The ledger is downloaded with your login, every entry's
hash is recomputed from the documented form and the last one is compared with the public head (/api/proof):

    hash = SHA-256 hex of prevHash + "\\n" + RFC 8785 canonical JSON of the entry without "hash"
    (keys sorted, no whitespace, UTF-8; the first entry's prevHash is 64 zeros)

Then it checks that what the server publishes and serves is what the chain holds:
- every day's fingerprint in /api/proof is the hash of that day's last entry (a published fingerprint that no
  entry has is an error, and so is a day of entries with no fingerprint);
- every idea the API serves (/api/trade-ideas) stands as the ledger's last entry for it says: levels, status,
  outcome, close price, R and dates; an idea the ledger deleted or never recorded is an error;
- each educator's headline figures in /api/educators/track-records (ideas, wins, losses, total R, win rate) are
  what the ledger's ideas make.

- every RFC 3161 time-stamp the server shows (/api/proof, and each day's in /api/proof/days/DATE) is a token over
  SHA-256 of the chain's hash at its seq *now*, signed by the certificate in it: a tail rewritten after a
  time-stamp is caught here, whoever rewrote it. The token is read by hand (a few lines of DER below) for its
  imprint and time; its signature is checked by `openssl ts -verify` (OpenSSL must be installed; without it, pass
  --no-tsa-signatures to check the imprints only). --tsa-ca FILE (the authorities' CA certificates, PEM) also
  checks that each signer chains to one of them; without it the certificate in the token is taken as it is.

Exit 0 when everything holds; 1 naming the first problem otherwise; 2 when the server cannot be read. Pass
--fingerprint DATE=HASH (a day's fingerprint you kept, e.g. from the channel) to check it is still in the chain.
"""

import argparse
import base64
import getpass
import hashlib
import http.cookiejar
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

GENESIS = "0" * 64
PAGE = 1000
IDEAS_PAGE = 100
STATE_KINDS = ("idea.published", "idea.edited", "idea.result", "idea.deleted")
# A completed idea's lesson, recorded beside its state (decision 0171).
LESSON_KIND = "idea.lesson"
# What the API serves of an idea, as the ledger's payload names it (R and the dates are compared in the ledger's
# spelling: two decimals, and UTC to the microsecond).
IDEA_FIELDS = ("pair", "entry1", "entry2", "invalidationLevel", "exit1", "exit2", "exit3", "status", "outcome",
               "closePrice")  # fmt: skip
# Absent from entries written before they were recorded (decisions 0080 and 0170).
LATER_FIELDS = ("createdAt", "closedAt", "setupId", "reason")


def canonical(value: Any) -> str:
    """RFC 8785 for what a ledger entry holds: objects, strings, integers, booleans and null."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # escapes exactly as ECMAScript's JSON.stringify
    if isinstance(value, dict):
        keys = sorted(value, key=lambda k: k.encode("utf-16-be"))  # UTF-16 code unit order
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(value[k]) for k in keys) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    raise ValueError(f"a ledger entry holds no {type(value).__name__} (numbers in payloads are strings)")


def entry_hash(entry: dict[str, Any]) -> str:
    body = {k: v for k, v in entry.items() if k != "hash"}
    return hashlib.sha256((entry["prevHash"] + "\n" + canonical(body)).encode("utf-8")).hexdigest()


class Server:
    def __init__(self, base: str) -> None:
        if urllib.parse.urlsplit(base).scheme not in ("http", "https"):
            raise ValueError(f"{base} is not an http(s) address")
        self.base = base.rstrip("/")
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        self.token: str | None = None

    def call(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode("utf-8")
        method = "POST" if body is not None else "GET"
        request = urllib.request.Request(self.base + path, data=data, method=method)  # noqa: S310 - http(s), checked
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        with self.opener.open(request, timeout=60) as answer:
            return json.load(answer)

    def login(self, email: str, password: str) -> None:
        last: urllib.error.HTTPError | None = None
        for role in ("customer", "educator", "admin"):  # any member may read the ledger
            try:
                self.token = self.call("/api/auth/login", {"email": email, "password": password, "selectedRole": role})[
                    "sessionToken"
                ]
                return
            except urllib.error.HTTPError as exc:
                last = exc
                if exc.code != 403:  # 403: this portal is not the member's role; anything else is final
                    raise
        assert last is not None
        raise last


def moment(value: Any) -> str | None:
    """A date the API serves, in the ledger's spelling (UTC, microseconds, Z)."""
    if value is None:
        return None
    at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def r_text(value: Any) -> str | None:
    return None if value is None else f"{Decimal(str(value)):.2f}"


# ---------------------------------------------------------------- RFC 3161 time-stamps
#
# A token is DER: ContentInfo { contentType, [0] SignedData { version, digestAlgorithms, encapContentInfo {
# eContentType, [0] OCTET STRING { TSTInfo { version, policy, messageImprint { algorithm, hashedMessage },
# serialNumber, genTime, ... } } }, ... } }. Only the path to the TSTInfo is read here; the signature is OpenSSL's.

SHA256_OID = bytes.fromhex("608648016503040201")  # the DER content of OID 2.16.840.1.101.3.4.2.1 (SHA-256)


def der(data: bytes, at: int) -> tuple[int, int, int]:
    """The DER element at `at`: (tag byte, where its content starts, where it ends)."""
    if at + 2 > len(data):
        raise ValueError("the token ends inside an element")
    tag, first = data[at], data[at + 1]
    at += 2
    if first < 0x80:
        length = first
    else:
        count = first & 0x7F
        if count == 0 or count > 4 or at + count > len(data):
            raise ValueError("the token has a length DER does not allow")
        length = int.from_bytes(data[at : at + count], "big")
        at += count
    if at + length > len(data):
        raise ValueError("the token ends inside an element")
    return tag, at, at + length


def children(data: bytes, start: int, end: int) -> list[tuple[int, int, int]]:
    out, at = [], start
    while at < end:
        element = der(data, at)
        out.append(element)
        at = element[2]
    return out


def expect(element: tuple[int, int, int], tag: int, what: str) -> tuple[int, int, int]:
    if element[0] != tag:
        raise ValueError(f"the token's {what} is not where RFC 3161 puts it")
    return element


@dataclass(frozen=True)
class TstInfo:
    imprint: bytes
    sha256: bool
    gen_time: datetime


def tst_info(token: bytes) -> TstInfo:
    """The imprint and time of a token, read from its DER."""
    info = children(token, *expect(der(token, 0), 0x30, "ContentInfo")[1:])
    signed = expect(der(token, expect(info[1], 0xA0, "content")[1]), 0x30, "SignedData")
    encap = children(token, *expect(children(token, signed[1], signed[2])[2], 0x30, "encapContentInfo")[1:])
    octets = expect(der(token, expect(encap[1], 0xA0, "eContent")[1]), 0x04, "eContent")
    fields = children(token, *expect(der(token, octets[1]), 0x30, "TSTInfo")[1:])
    imprint = children(token, *expect(fields[2], 0x30, "messageImprint")[1:])
    algorithm = children(token, *expect(imprint[0], 0x30, "hash algorithm")[1:])[0]
    hashed = expect(imprint[1], 0x04, "hashed message")
    when = expect(fields[4], 0x18, "genTime")
    text = token[when[1] : when[2]].decode("ascii")
    if not text.endswith("Z"):
        raise ValueError(f"the token's time {text} is not UTC")
    whole, _, fraction = text[:-1].partition(".")
    at = datetime.strptime(whole, "%Y%m%d%H%M%S").replace(tzinfo=UTC)
    if fraction:
        at = at.replace(microsecond=int(fraction[:6].ljust(6, "0")))
    return TstInfo(
        imprint=token[hashed[1] : hashed[2]],
        sha256=algorithm[0] == 0x06 and token[algorithm[1] : algorithm[2]] == SHA256_OID,
        gen_time=at,
    )


def openssl_verify(token: bytes, digest: bytes, at: datetime, ca: Path | None, openssl: str) -> str | None:
    """`openssl ts -verify` of the token against the digest: None when it holds, else what OpenSSL said. Without a
    CA file the token's own certificates are the trust anchors (-partial_chain): the signature is checked with the
    certificate in the token, as the authority sent it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "token.der"
        path.write_bytes(token)
        if ca is None:
            certs = subprocess.run(  # noqa: S603 - a fixed program and arguments
                [openssl, "pkcs7", "-inform", "DER", "-in", str(path), "-print_certs"],
                capture_output=True, check=False, timeout=60,
            )  # fmt: skip
            if certs.returncode != 0 or b"BEGIN CERTIFICATE" not in certs.stdout:
                return "the token holds no certificate"
            ca = Path(folder) / "certs.pem"
            ca.write_bytes(certs.stdout)
        args = [openssl, "ts", "-verify", "-digest", digest.hex(), "-in", str(path), "-token_in"]
        args += ["-CAfile", str(ca), "-attime", str(int(at.timestamp()))]
        if ca.parent == Path(folder):
            args.append("-partial_chain")
        done = subprocess.run(args, capture_output=True, check=False, timeout=60)  # noqa: S603
    if done.returncode == 0:
        return None
    # OpenSSL's error lines: CODE:error:NUMBER:LIBRARY:FUNCTION:REASON:FILE:LINE:DATA
    said = [line.split(":") for line in done.stderr.decode(errors="replace").splitlines() if ":error:" in line]
    reasons = [parts[5] for parts in said if len(parts) > 5]
    return "openssl ts -verify: " + ("; ".join(dict.fromkeys(reasons)) or "verification failed")


def check_timestamps(
    stamps: list[dict[str, Any]], hashes: dict[int, str], count: int, ca: Path | None, openssl: str | None
) -> str | None:
    """Each time-stamp over the chain's hash at its seq now (imprint by hand, signature by OpenSSL)."""
    for stamp in sorted(stamps, key=lambda s: (int(s["seq"]), str(s["authority"]))):
        seq = int(stamp["seq"])
        name = f"seq {seq}: the time-stamp by {stamp['authority']} at {stamp['at']}"
        if seq not in hashes:
            return f"{name} is of an entry no longer in the chain (it ends at seq {count})"
        token = base64.b64decode(stamp["token"], validate=True)
        try:
            info = tst_info(token)
        except (ValueError, IndexError) as exc:
            return f"{name} cannot be read: {exc}"
        expected = hashlib.sha256(hashes[seq].encode("ascii")).digest()
        if not info.sha256 or info.imprint != expected:
            return f"{name} is not over the chain's hash at seq {seq} now ({hashes[seq]}): the tail was rewritten"
        if moment(stamp["at"]) != moment(info.gen_time.isoformat()):
            return f"{name}: the token says it was made at {info.gen_time.isoformat()}"
        if openssl is not None:
            problem = openssl_verify(token, expected, info.gen_time, ca, openssl)
            if problem:
                return f"{name} does not verify: {problem}"
    return None


def served_timestamps(server: "Server", proof: dict[str, Any]) -> list[dict[str, Any]]:
    """Every time-stamp the server shows: the latest per authority, each day's fingerprint's, and every one of the
    days that have any (the hourly heads; listed per day in /api/proof/days/DATE) and of the newest day."""
    found = {(s["authority"], s["seq"]): s for s in proof.get("timestamps", [])}
    days = proof.get("days", [])
    for index, day in enumerate(days):
        for s in day.get("timestamps", []):
            found[(s["authority"], s["seq"])] = s
        if day.get("timestamps") or index == 0:
            for s in server.call(f"/api/proof/days/{day['date']}").get("timestamps", []):
                found[(s["authority"], s["seq"])] = s
    return list(found.values())


def check(
    server: Server,
    fingerprints: dict[str, str],
    ca: Path | None = None,
    openssl: str | None = None,
) -> tuple[bool, str]:
    """Walk the chain; a kept fingerprint holds when an entry of its day still has that hash (every entry before it
    is then as it was when the fingerprint was posted). Then hold the server's proof, ideas and figures against it."""
    stamps = served_timestamps(server, server.call("/api/proof"))
    stamped = {int(s["seq"]) for s in stamps}
    hashes: dict[int, str] = {}  # the chain's hash at each time-stamped seq
    prev, expected, after = GENESIS, 1, 0
    found: set[str] = set()  # days whose kept fingerprint is the hash of one of their entries
    last_of_day: dict[str, int] = {}
    # Per UTC day of the chain: [first seq, last seq, entries, hash of the last].
    days: dict[str, list[Any]] = {}
    # Per idea: (kind, payload, seq) of the last entry that described its state.
    ideas: dict[int, tuple[str, dict[str, Any], int]] = {}
    # Per idea: (payload, seq) of its last lesson entry.
    lessons: dict[int, tuple[dict[str, Any], int]] = {}
    while True:
        page = server.call(f"/api/proof/ledger?{urllib.parse.urlencode({'after': after, 'limit': PAGE})}")
        for entry in page["entries"]:
            seq = entry.get("seq")
            if seq != expected:
                return False, f"seq {expected}: missing (the server sent seq {seq} next)"
            if entry.get("prevHash") != prev:
                return False, f"seq {seq}: prevHash does not match the hash of seq {seq - 1}"
            try:
                computed = entry_hash(entry)
            except ValueError as exc:
                return False, f"seq {seq}: {exc}"
            if computed != entry.get("hash"):
                return False, f"seq {seq}: hash does not match its content"
            if seq in stamped:
                hashes[seq] = computed
            day = str(entry["at"])[:10]
            known = days.get(day)
            if known is None:
                days[day] = [seq, seq, 1, computed]
            else:
                known[1:] = [seq, known[2] + 1, computed]
            if entry.get("kind") in STATE_KINDS:
                ideas[int(entry["subjectId"])] = (entry["kind"], entry["payload"], seq)
            elif entry.get("kind") == LESSON_KIND:
                lessons[int(entry["subjectId"])] = (entry["payload"], seq)
            if day in fingerprints:
                last_of_day[day] = seq
                if computed == fingerprints[day]:
                    found.add(day)
            prev, expected = computed, expected + 1
        if page.get("nextAfter") is None:
            break
        after = page["nextAfter"]
    head = server.call("/api/proof")["head"]
    count = expected - 1
    if head.get("seq") != count or head.get("hash") != prev:
        head_seq = int(head.get("seq") or 0)
        bad = count + 1 if head_seq > count else max(head_seq, 1)
        said = f"the public head is seq {head_seq} {head.get('hash')}"
        return False, f"seq {bad}: {said}, but the ledger ends at seq {count} {prev}"
    for day in fingerprints:
        if day not in found:
            where = f"seq {last_of_day[day]}" if day in last_of_day else f"seq {count}: no entry is dated {day}"
            return False, f"{where}: the fingerprint of {day} you kept is no longer in the chain"
    problem = (
        check_timestamps(stamps, hashes, count, ca, openssl)
        or check_days(server.call("/api/proof")["days"], days)
        or check_ideas(server, ideas, lessons)
        or check_figures(server.call("/api/educators/track-records"), ideas)
    )
    if problem:
        return False, problem
    signed = "" if openssl is not None or not stamps else " (signatures not checked: --no-tsa-signatures)"
    return True, (
        f"Ledger intact: {count} entries, head seq {count} {prev}; {len(ideas)} ideas and the figures match; "
        f"{len(stamps)} time-stamps hold{signed}"
    )


def check_days(published: list[dict[str, Any]], days: dict[str, list[Any]]) -> str | None:
    """Every published day's fingerprint is the hash of that day's last entry, and every day has one."""
    seen = set()
    for day in published:
        date, fingerprint = str(day.get("date")), day.get("hash")
        seen.add(date)
        ours = days.get(date)
        if ours is None:
            return (
                f"the fingerprint of {date} in /api/proof ({fingerprint}) is no entry's hash: no entry is dated {date}"
            )
        first, last, entries, hashed = ours
        if fingerprint != hashed:
            return (
                f"seq {last}: the fingerprint of {date} in /api/proof ({fingerprint}) is not the hash of the day's "
                f"last entry ({hashed})"
            )
        if (day.get("firstSeq"), day.get("lastSeq"), day.get("entries")) != (first, last, entries):
            return (
                f"seq {last}: /api/proof says {date} holds seq {day.get('firstSeq')}-{day.get('lastSeq')} "
                f"({day.get('entries')} entries), the chain seq {first}-{last} ({entries})"
            )
    for date in sorted(set(days) - seen):
        return f"seq {days[date][1]}: /api/proof has no fingerprint of {date}, a day with entries"
    return None


def check_ideas(
    server: Server,
    ideas: dict[int, tuple[str, dict[str, Any], int]],
    lessons: dict[int, tuple[dict[str, Any], int]],
) -> str | None:
    """Every idea the API serves stands as the ledger's last entry for it says, its lesson as its last lesson entry."""
    cursor: str | None = None
    while True:
        query = {"limit": IDEAS_PAGE, **({"cursor": cursor} if cursor else {})}
        page = server.call(f"/api/trade-ideas?{urllib.parse.urlencode(query)}")
        for idea in page["items"]:
            idea_id = int(idea["id"])
            known = ideas.get(idea_id)
            if known is None:
                return f"idea #{idea_id} {idea.get('pair')}: served by the API, but the ledger never recorded it"
            kind, payload, seq = known
            if kind == "idea.deleted":
                return f"idea #{idea_id} {idea.get('pair')}: served by the API, but the ledger deleted it (seq {seq})"
            served = {name: idea.get(name) for name in IDEA_FIELDS}
            served["rMultiple"] = r_text(idea.get("rMultiple"))
            served["createdAt"], served["closedAt"] = moment(idea.get("createdAt")), moment(idea.get("closedAt"))
            setup_id = idea.get("setupId")
            served["setupId"], served["reason"] = None if setup_id is None else str(setup_id), idea.get("reason")
            for name, value in served.items():
                if name in LATER_FIELDS and name not in payload:
                    continue
                if payload.get(name) != value:
                    return (
                        f"idea #{idea_id} {idea.get('pair')}: the API serves {name} {value!r}, "
                        f"the ledger's last entry for it (seq {seq}) says {payload.get(name)!r}"
                    )
            problem = check_lesson(idea, lessons.get(idea_id))
            if problem:
                return problem
        cursor = page.get("nextCursor")
        if not cursor:
            return None


def check_lesson(idea: dict[str, Any], recorded: tuple[dict[str, Any], int] | None) -> str | None:
    """The lesson the API serves is the ledger's last lesson entry for the idea (both absent, or equal)."""
    served = idea.get("lesson")
    name = f"idea #{idea['id']} {idea.get('pair')}"
    if recorded is None:
        return None if served is None else f"{name}: the API serves a lesson the ledger never recorded"
    payload, seq = recorded
    if served is None:
        return f"{name}: the API serves no lesson, but the ledger recorded one (seq {seq})"
    for field in ("whatHappened", "lesson"):
        if payload.get(field) != served.get(field):
            return (
                f"{name}: the API serves lesson {field} {served.get(field)!r}, "
                f"the ledger's last lesson entry for it (seq {seq}) says {payload.get(field)!r}"
            )
    return None


def ledger_figures(ideas: dict[int, tuple[str, dict[str, Any], int]]) -> dict[int, dict[str, Any]]:
    """Per educator, the headline figures of the ideas the ledger holds (deleted ones left out): ideas, wins,
    losses, total R (the sum of the wins' and losses' R) and win rate (wins over wins and losses, 4 decimals)."""
    out: dict[int, dict[str, Any]] = {}
    for kind, payload, _seq in ideas.values():
        if kind == "idea.deleted":
            continue
        figures = out.setdefault(int(payload["educatorId"]), {"ideas": 0, "wins": 0, "losses": 0, "r": Decimal(0)})
        figures["ideas"] += 1
        status, r = payload.get("status"), payload.get("rMultiple")
        closed = payload.get("closedAt") is not None if "closedAt" in payload else payload.get("outcome") is not None
        if not closed or status not in ("successful", "unsuccessful"):
            continue
        figures["wins" if status == "successful" else "losses"] += 1
        if r is not None:
            figures["r"] += Decimal(r)
    return out


def check_figures(summaries: list[dict[str, Any]], ideas: dict[int, tuple[str, dict[str, Any], int]]) -> str | None:
    """Each educator's headline figures in /api/educators/track-records against the ledger's."""
    ours = ledger_figures(ideas)
    for summary in summaries:
        educator = summary.get("educator") or {}
        mine = ours.get(int(educator.get("id", 0)), {"ideas": 0, "wins": 0, "losses": 0, "r": Decimal(0)})
        decided = mine["wins"] + mine["losses"]
        expected = {
            "ideas": mine["ideas"],
            "wins": mine["wins"],
            "losses": mine["losses"],
            "totalR": mine["r"],
            "winRate": round(Decimal(mine["wins"]) / decided, 4) if decided else None,
        }
        for name, value in expected.items():
            shown = summary.get(name)
            if name in ("totalR", "winRate") and shown is not None and value is not None:
                same = abs(Decimal(str(shown)) - Decimal(value)) <= Decimal("0.005")
            else:
                same = shown == value
            if not same:
                return (
                    f"educator #{educator.get('id')} {educator.get('name', '')}: /api/educators/track-records shows "
                    f"{name} {shown}, the ledger's ideas make {value}"
                )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="the platform's address, e.g. https://ideas.example.com")
    parser.add_argument("--email", required=True, help="your login (any member may read the ledger)")
    parser.add_argument("--fingerprint", action="append", default=[], metavar="DATE=HASH")
    parser.add_argument("--tsa-ca", type=Path, metavar="FILE", help="the time-stamp authorities' CA certificates (PEM)")
    parser.add_argument(
        "--no-tsa-signatures", action="store_true", help="check time-stamps' imprints only (when OpenSSL is missing)"
    )
    args = parser.parse_args(argv)
    openssl = None if args.no_tsa_signatures else shutil.which("openssl")
    if openssl is None and not args.no_tsa_signatures:
        print("OpenSSL is needed to check the time-stamps' signatures (or pass --no-tsa-signatures)", file=sys.stderr)
        return 2
    if args.tsa_ca is not None and not args.tsa_ca.is_file():
        print(f"--tsa-ca: {args.tsa_ca} is not a file", file=sys.stderr)
        return 2
    password = os.environ.get("TRADEIDEAS_PASSWORD") or getpass.getpass(f"Password for {args.email}: ")
    fingerprints = dict(f.split("=", 1) for f in args.fingerprint)
    try:
        server = Server(args.url)
        server.login(args.email, password)
        ok, message = check(server, fingerprints, args.tsa_ca, openssl)
    except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
        print(f"Could not read the ledger: {exc}", file=sys.stderr)
        return 2
    print(message, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
