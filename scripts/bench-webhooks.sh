#!/usr/bin/env bash
# Webhook delivery through the real binary: order.created latency at RATE
# orders a second and the worker's throughput draining a queued backlog
# (docs/benchmarks.md, "Webhook delivery"; scripts/bench-webhooks.py says
# how each is measured). The store is SQLite in a temporary directory, or
# the DSN in DB (a PostgreSQL database to use up: its tables are written).
#
#   scripts/bench-webhooks.sh BINARY [RATE] [SECONDS] [BACKLOG]
#
# Only loopback traffic; the server and its temporary store are removed at
# the end.
set -euo pipefail
bin=${1:?usage: bench-webhooks.sh BINARY [RATE] [SECONDS] [BACKLOG]}
port=${PORT:-18191}
tmp=$(mktemp -d)
db=${DB:-sqlite:$tmp/v.db}
"$bin" --db "$db" --log-level warn migrate >/dev/null
printf '%s\n' 'a long benchmark passphrase' | "$bin" --db "$db" --log-level warn user create --email bench@example.com --role shop_manager --password-stdin >/dev/null
keys=$("$bin" --db "$db" --log-level warn api-key create --email bench@example.com --permissions read_write --description bench)
ck=$(sed -n 's/.*consumer_key=\(ck_[0-9a-f]*\).*/\1/p' <<<"$keys")
cs=$(sed -n 's/.*consumer_secret=\(cs_[0-9a-f]*\).*/\1/p' <<<"$keys")
"$bin" --demo --webhooks-allow-private --addr "127.0.0.1:$port" --metrics-addr '' --db "$db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 150); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
python3 "$(dirname "$0")/bench-webhooks.py" "http://127.0.0.1:$port" "$ck" "$cs" "${2:-100}" "${3:-10}" "${4:-2000}"
