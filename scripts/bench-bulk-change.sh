#!/usr/bin/env bash
# bench-bulk-change.sh BINARY DB_FILE [CHANGES] [PAGES] [SECONDS]
# Shoppers' latency while 1,000 products' prices change on a large
# catalogue (docs/benchmarks.md, "Bulk change at 100,000 products"). DB_FILE
# is a SQLite store made by vitrine-gen (copied: the run changes prices):
#   go run ./cmd/vitrine-gen -db sqlite:/tmp/v100k.db -n 100000
set -euo pipefail
bin=$1 src=$2 changes=${3:-1000} pages=${4:-3000} secs=${5:-30}
port=${PORT:-18185} mport=${MPORT:-19185}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
cp "$src" "$tmp/v.db"
(cd "$root" && go build -o "$tmp/vitrine-load" ./cmd/vitrine-load)
pw='a long benchmark passphrase'
printf '%s\n' "$pw" | "$bin" --db "sqlite:$tmp/v.db" user create --email staff@example.com --role administrator --password-stdin >/dev/null 2>&1
"$bin" --addr "127.0.0.1:$port" --metrics-addr "127.0.0.1:$mport" --db "sqlite:$tmp/v.db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 300); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
METRICS="http://127.0.0.1:$mport" python3 "$root/scripts/bench-bulk-change.py" "http://127.0.0.1:$port" staff@example.com "$pw" "$tmp/vitrine-load" "$changes" "$pages" "$secs"
