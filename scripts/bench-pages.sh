#!/usr/bin/env bash
# bench-pages.sh BINARY DSN PORT PATH...: pages through the real binary one
# at a time (docs/benchmarks.md, "Listing pages taken from the facet index"):
# starts BINARY on DSN with the page cache off, then for each PATH sends 10
# requests unmeasured and 60 measured at c=1 and prints p50 and p99 and the
# CPU each page cost the shop and its render workers (from /proc, so other
# load on the machine does not count; PostgreSQL's backends are not
# counted). Put a comma in a PATH as %2C: the load tool splits -url on commas.
set -euo pipefail
. "$(dirname "$0")/lib/shop-cpu.sh"
bin=$1 dsn=$2 port=$3
shift 3
load=${LOAD:-$(dirname "$0")/../bin/vitrine-load}
"$bin" serve --db "$dsn" --addr "127.0.0.1:$port" --metrics-addr '' --cache-mb 0 --log-level warn >/dev/null 2>&1 &
pid=$!
out=$(mktemp)
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$out"' EXIT
wait_ready "$port"
for u in "$@"; do
  "$load" -url "http://127.0.0.1:$port$u" -c 1 -n 10 -d 60s -warmup 0s -H 'Accept-Encoding: br' >/dev/null
  read -r s0 w0 < <(ticks "$pid")
  "$load" -url "http://127.0.0.1:$port$u" -c 1 -n 60 -d 60s -warmup 0s -H 'Accept-Encoding: br' >"$out"
  read -r s1 w1 < <(ticks "$pid")
  awk -v s=$((s1 - s0)) -v w=$((w1 - w0)) -v hz="$(getconf CLK_TCK)" -v u="$u" -v ld="$(cut -d' ' -f1 /proc/loadavg)" '
    /^latency/ { p50 = $6; p99 = $10 }
    END { printf "%-80s p50 %s p99 %s  CPU %.1f ms (shop %.1f)  load %s\n", u, p50, p99, (s + w) * 1000 / hz / 60, s * 1000 / hz / 60, ld }' "$out"
done
