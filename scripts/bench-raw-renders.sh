#!/usr/bin/env bash
# bench-raw-renders.sh BINARY LOADTOOL SHOPDB URLFILE [PORT] [extra server flags...]
# Cache-off product pages through the real binary (docs/benchmarks.md,
# "Raw renders"): starts BINARY on a copy of SHOPDB (a vitrine-gen catalogue)
# with the page cache off, loads it round robin over URLFILE's product URLs
# (c=32, 3 s unmeasured then 15 s; C and D override), and prints req/s,
# latency and the CPU each request cost in the shop and in its render
# workers (from /proc, so another load on the machine does not count).
set -euo pipefail
. "$(dirname "$0")/lib/shop-cpu.sh"
bin=$1 load=$2 shopdb=$3 urls=$4 port=${5:-18500}
shift $(($# < 5 ? $# : 5))
tmp=$(mktemp -d)
cp "$shopdb" "$tmp/shop.db"
"$bin" --db "sqlite:$tmp/shop.db" --addr "127.0.0.1:$port" --metrics-addr '' --cache-mb 0 --log-level warn "$@" 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
wait_ready "$port"
# Sed the URLs onto this port: the file may name another.
sed -E "s#^https?://[^/]+#http://127.0.0.1:$port#" "$urls" >"$tmp/urls.txt"
"$load" -url-file "$tmp/urls.txt" -c 32 -d 3s -warmup 0s -H 'Accept-Encoding: br' >/dev/null
read -r s0 w0 < <(ticks "$pid")
"$load" -url-file "$tmp/urls.txt" -c "${C:-32}" -d "${D:-15s}" -warmup 0s -H 'Accept-Encoding: br' >"$tmp/load.txt"
read -r s1 w1 < <(ticks "$pid")
n=$(awk '/^requests:/{print $2}' "$tmp/load.txt")
awk -v n="$n" -v s=$((s1 - s0)) -v w=$((w1 - w0)) -v hz="$(getconf CLK_TCK)" -v ld="$(cut -d' ' -f1 /proc/loadavg)" '
  /^throughput:/ { rps = $2 }
  /^latency/ { p50 = $6; p99 = $10 }
  END { printf "%.1f req/s  p50 %s ms  p99 %s ms  CPU per request: shop %.2f ms, workers %.2f ms, total %.2f ms  (load %s)\n",
        rps, p50, p99, s * 1000 / hz / n, w * 1000 / hz / n, (s + w) * 1000 / hz / n, ld }' "$tmp/load.txt"
