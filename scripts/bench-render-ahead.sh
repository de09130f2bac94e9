#!/usr/bin/env bash
# bench-render-ahead.sh BINARY PORT ROUNDS IDLE_SECONDS FIRST_AFTER_SECONDS
# Render ahead through the real binary (docs/benchmarks.md, "Render ahead").
set -euo pipefail
bin=$1 port=$2
tmp=$(mktemp -d); db="sqlite:$tmp/v.db"
pw='a long benchmark passphrase'
printf '%s\n' "$pw" | "$bin" --db "$db" user create --email staff@example.com --role administrator --password-stdin >/dev/null
"$bin" --demo --addr "127.0.0.1:$port" --metrics-addr '' --db "$db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
python3 "$(dirname "$0")/bench-render-ahead.py" "http://127.0.0.1:$port" staff@example.com "$pw" "$3" "$4" "$5"
