#!/usr/bin/env bash
# Lighthouse (mobile profile, simulated throttling) on /login and /customer/forex of a running
# production server (`make run`), three runs each; prints the median category scores and timings.
#
#   bench/lighthouse.sh [BASE_URL]          default http://127.0.0.1:8000
#
# RUNS=n sets the runs per page (default 3); REPORTS=dir keeps the JSON reports there (to see what
# costs the score: open one in https://googlechrome.github.io/lighthouse/viewer/ or read its audits).
#
# Needs Node.js (lighthouse is fetched by npx on first use) and Chromium (CHROME_PATH, default
# /usr/bin/chromium). The customer page is measured signed in: the script logs in as the demo
# customer (DEMO_PASSWORD, default TradeIdeas2026!) and hands the session cookie to Lighthouse.
set -euo pipefail

BASE_URL="${1:-http://127.0.0.1:8000}"
RUNS="${RUNS:-3}"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
read -r -a LIGHTHOUSE <<< "${LIGHTHOUSE_CMD:-npx --yes lighthouse@12}"
if [ -n "${REPORTS:-}" ]; then
  OUT="$REPORTS"
  mkdir -p "$OUT"
else
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi

cookie="$(curl -fsS -o /dev/null -D - -X POST "$BASE_URL/api/auth/login" \
  -H 'Content-Type: application/json' -H "Origin: $BASE_URL" \
  -d "{\"email\":\"customer@example.com\",\"password\":\"${DEMO_PASSWORD:-TradeIdeas2026!}\",\"selectedRole\":\"customer\"}" \
  | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: \(session=[^;]*\).*/\1/p')"
[ -n "$cookie" ] || { echo "login failed: is the server running at $BASE_URL?" >&2; exit 1; }

measure() { # name path [extra lighthouse flags...]
  local name="$1" path="$2"
  shift 2
  for run in $(seq 1 "$RUNS"); do
    # Lighthouse sometimes fails to record the trace on a busy machine (NO_NAVSTART): such a run is tried again.
    for attempt in 1 2 3; do
      "${LIGHTHOUSE[@]}" "$BASE_URL$path" --quiet --output=json --output-path="$OUT/$name-$run.json" \
        --only-categories=performance,accessibility,best-practices \
        --chrome-flags="--headless=new --no-sandbox --disable-gpu" "$@" >/dev/null && break
      [ "$attempt" -lt 3 ] || exit 1
    done
  done
}

measure login /login
measure customer-forex /customer/forex --extra-headers="{\"Cookie\": \"$cookie\"}"

node - "$OUT" <<'EOF'
const fs = require("fs");
const dir = process.argv[2];
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const groups = {};
for (const file of fs.readdirSync(dir)) {
  const name = file.replace(/-\d+\.json$/, "");
  const report = JSON.parse(fs.readFileSync(`${dir}/${file}`, "utf8"));
  (groups[name] ??= []).push(report);
}
console.log("| page | performance | accessibility | best practices | FCP (s) | LCP (s) | TBT (ms) | CLS |");
console.log("|---|---|---|---|---|---|---|---|");
for (const [name, reports] of Object.entries(groups)) {
  const score = (c) => median(reports.map((r) => Math.round(r.categories[c].score * 100)));
  const audit = (a) => median(reports.map((r) => r.audits[a].numericValue));
  console.log(
    `| ${reports[0].finalDisplayedUrl.replace(/^https?:\/\/[^/]+/, "")} | ${score("performance")} | ${score("accessibility")} | ` +
      `${score("best-practices")} | ${(audit("first-contentful-paint") / 1000).toFixed(2)} | ` +
      `${(audit("largest-contentful-paint") / 1000).toFixed(2)} | ${Math.round(audit("total-blocking-time"))} | ` +
      `${audit("cumulative-layout-shift").toFixed(3)} |`,
  );
}
EOF
