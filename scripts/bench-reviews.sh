#!/usr/bin/env bash
# Review posts through the real binary, on SQLite: POST /wp-comments-post.php
# as the product page's script sends it (Accept: application/json, answered
# 201 with the review), each with its own reviewer email (one review per
# product per email) and its own solved ALTCHA payload (single use), solved
# here before the run like the widget would. The run is bounded by the
# number of payloads (REVIEWS, default 1000; 9 in 10 are measured, so the
# workers never wrap around to a spent one), no warm-up. Two scenarios:
# held for moderation (the default: an insert, nothing shown changes) and
# auto-approved (the insert also recomputes the product's rating figures
# and appends a product change, which drops the product's cached pages).
# The per-address rate limit is turned off (--review-rate-limit 0): every
# post comes from 127.0.0.1. C sets the concurrency (default 4). One JSON
# line per scenario.
#
#   scripts/bench-reviews.sh BINARY [LABEL]
#
# Only loopback traffic; the servers and their temporary stores are removed
# at the end. See docs/benchmarks.md for the figures.
set -euo pipefail
bin=${1:?usage: bench-reviews.sh BINARY [LABEL]}
label=${2:-$(basename "$bin")}
reviews=${REVIEWS:-1000}
conc=${C:-4}
port=${PORT:-18183}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
load="$tmp/vitrine-load"
(cd "$root" && go build -o "$load" ./cmd/vitrine-load)
pid=
trap '[ -n "$pid" ] && kill $pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
base="http://127.0.0.1:$port"

# run SCENARIO FLAGS...: a fresh store and server, REVIEWS bodies, one run.
run() {
  local scenario=$1; shift
  rm -f "$tmp"/v.db*
  "$bin" --demo --addr "127.0.0.1:$port" --metrics-addr '' --db "sqlite:$tmp/v.db" --log-level warn --review-rate-limit 0 "$@" 2>"$tmp/server.log" &
  pid=$!
  for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done
  python3 - "$base" "$reviews" "$scenario" >"$tmp/bodies" <<'PY'
import base64, hashlib, json, sys, urllib.parse, urllib.request
base, n, scenario = sys.argv[1], int(sys.argv[2]), sys.argv[3]
pid = json.load(urllib.request.urlopen(base + "/wp-json/wc/store/v1/products?slug=classic-tee"))[0]["id"]
for i in range(n):
    c = json.load(urllib.request.urlopen(base + "/wp-json/vitrine/v1/botcheck/review"))
    salt, want = c["salt"], c["challenge"]
    num = next(k for k in range(c["maxnumber"] + 1) if hashlib.sha256((salt + str(k)).encode()).hexdigest() == want)
    payload = base64.b64encode(json.dumps({"algorithm": c["algorithm"], "challenge": want, "number": num,
                                           "salt": salt, "signature": c["signature"]}).encode()).decode()
    print(urllib.parse.urlencode({"comment_post_ID": pid, "rating": 1 + i % 5, "comment": "Soft, well cut, true to size.",
                                  "author": "Reviewer %d" % i, "email": "r%d-%s@example.com" % (i, scenario),
                                  "altcha": payload, "submit": "Submit"}))
PY
  # The last body is kept out of the run: it must be accepted (a wrong
  # setup would measure fast refusals instead of reviews).
  check=$(tail -n 1 "$tmp/bodies"); sed -i '$d' "$tmp/bodies"
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "$form" -H 'Accept: application/json' --data "$check" "$base/wp-comments-post.php")
  [ "$code" = 201 ] || { echo "bench-reviews: the check review answered $code" >&2; exit 1; }
  printf '{"label":"%s","scenario":"%s","result":%s}\n' "$label" "$scenario" \
    "$("$load" -c "$conc" -n $((reviews * 9 / 10)) -d 5m -warmup 0 -json -method POST -H "$form" -H 'Accept: application/json' -body-file "$tmp/bodies" -url "$base/wp-comments-post.php")"
  kill $pid; wait $pid 2>/dev/null || true; pid=
}

form='Content-Type: application/x-www-form-urlencoded'
run held
run approved --review-auto-approve
