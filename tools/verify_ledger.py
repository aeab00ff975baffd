#!/usr/bin/env python3
"""Check the trade-ideas ledger without trusting the server's code: standard library only.

    python3 tools/verify_ledger.py https://ideas.example.com --email you@example.com

The password comes from TRADEIDEAS_PASSWORD or a prompt. The ledger is downloaded with your login, every entry's
hash is recomputed from the documented form and the last one is compared with the public head (/api/proof):

    hash = SHA-256 hex of prevHash + "\\n" + RFC 8785 canonical JSON of the entry without "hash"
    (keys sorted, no whitespace, UTF-8; the first entry's prevHash is 64 zeros)

Exit 0 when everything holds; 1 with the first bad seq otherwise; 2 when the server cannot be read. Pass
--fingerprint DATE=HASH (a day's fingerprint you kept, e.g. from the channel) to check it is still in the chain.
"""

import argparse
import getpass
import hashlib
import http.cookiejar
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

GENESIS = "0" * 64
PAGE = 1000


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


def check(server: Server, fingerprints: dict[str, str]) -> tuple[bool, str]:
    """Walk the chain; a kept fingerprint holds when an entry of its day still has that hash (every entry before it
    is then as it was when the fingerprint was posted)."""
    prev, expected, after = GENESIS, 1, 0
    found: set[str] = set()  # days whose kept fingerprint is the hash of one of their entries
    last_of_day: dict[str, int] = {}
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
            day = str(entry["at"])[:10]
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
    return True, f"Ledger intact: {count} entries, head seq {count} {prev}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", help="the platform's address, e.g. https://ideas.example.com")
    parser.add_argument("--email", required=True, help="your login (any member may read the ledger)")
    parser.add_argument("--fingerprint", action="append", default=[], metavar="DATE=HASH")
    args = parser.parse_args(argv)
    password = os.environ.get("TRADEIDEAS_PASSWORD") or getpass.getpass(f"Password for {args.email}: ")
    fingerprints = dict(f.split("=", 1) for f in args.fingerprint)
    try:
        server = Server(args.url)
        server.login(args.email, password)
        ok, message = check(server, fingerprints)
    except (urllib.error.URLError, OSError, ValueError, KeyError) as exc:
        print(f"Could not read the ledger: {exc}", file=sys.stderr)
        return 2
    print(message, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
