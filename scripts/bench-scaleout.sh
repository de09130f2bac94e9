#!/usr/bin/env bash
# Several instances of the real binary on one PostgreSQL database behind
# HAProxy, all on loopback (issue 16): a cached product page, wc-ajax
# add_to_cart without a session, and orders (Store API checkout of carts
# made beforehand, one cart per order). Prints one JSON line per run, then
# what PostgreSQL showed during the order run: the wait events of active
# backends (sampled every 0.2 s), ungranted locks, commits and WAL.
#
#   scripts/bench-scaleout.sh BINARY INSTANCES [LABEL]
#
# Environment: PGBASE (default postgres://postgres@127.0.0.1:5432), DBNAME
# (vitrine_scale; created, and dropped at the end), POOL (--db-max-conns,
# empty: the default), RUNS (2), DURATION (8s), C (32 workers), CARTS (2500
# carts for the order run), ONLY (one scenario: product, wcajax, orders).
# Needs haproxy, psql, createdb, dropdb, python3, curl.
set -euo pipefail
bin=${1:?usage: bench-scaleout.sh BINARY INSTANCES [LABEL]}
n=${2:?usage: bench-scaleout.sh BINARY INSTANCES [LABEL]}
label=${3:-${n}x}
pgbase=${PGBASE:-postgres://postgres@127.0.0.1:5432}
dbname=${DBNAME:-vitrine_scale}
runs=${RUNS:-2}
dur=${DURATION:-8s}
conc=${C:-32}
carts=${CARTS:-2500}
lbport=${LBPORT:-18200}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
load="$tmp/vitrine-load"
(cd "$root" && go build -o "$load" ./cmd/vitrine-load)
dsn="$pgbase/$dbname?sslmode=disable"
psqlq() { psql "$pgbase/$dbname?sslmode=disable" -XAtq -c "$1"; }
dropdb --if-exists "$pgbase/postgres" -f "$dbname" 2>/dev/null || dropdb --if-exists -h 127.0.0.1 -U postgres -f "$dbname"
createdb -h 127.0.0.1 -U postgres "$dbname"

pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  dropdb --if-exists -h 127.0.0.1 -U postgres -f "$dbname" || true
  rm -rf "$tmp"
}
trap cleanup EXIT

pool=()
if [[ -n ${POOL:-} ]]; then pool=(--db-max-conns "$POOL"); fi
servers=""
for i in $(seq "$n"); do
  port=$((lbport + i))
  # Behind the proxy: no per-address connection cap, the proxy trusted,
  # no checkout rate limit (every request comes from one address).
  "$bin" --demo --addr "127.0.0.1:$port" --metrics-addr "127.0.0.1:$((port + 100))" --db "$dsn" --log-level warn \
    --max-conns-per-ip 0 --trusted-proxies 127.0.0.1 --checkout-rate-limit 0 --checkout-rate-limit-address 0 \
    "${pool[@]}" 2>"$tmp/server$i.log" &
  pids+=($!)
  # The first instance seeds the demo shop; the others start on it.
  for _ in $(seq 150); do curl -fs "http://127.0.0.1:$port/readyz" >/dev/null && break; sleep 0.2; done
  servers+="  server v$i 127.0.0.1:$port check inter 1s"$'\n'
done
cat >"$tmp/haproxy.cfg" <<EOF
global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
frontend shop
  bind 127.0.0.1:$lbport
  default_backend vitrine
backend vitrine
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  option forwardfor
  http-reuse safe
$servers
EOF
haproxy -f "$tmp/haproxy.cfg" -db 2>"$tmp/haproxy.log" &
pids+=($!)
base="http://127.0.0.1:$lbport"
for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done
sleep 2 # every backend's first health check

id=$(curl -fs "$base/wp-json/wc/store/v1/products?search=tank&per_page=5" |
  python3 -c 'import json,sys; print(next(p["id"] for p in json.load(sys.stdin) if p["name"]=="Cotton Tank Top"))')

metrics() { # the store pools' wait counters of every instance
  for i in $(seq "$n"); do curl -fs "http://127.0.0.1:$((lbport + i + 100))/metrics" | grep "^vitrine_store_wait_count{pool=\"write\"}" | sed "s/^/v$i /" || true; done
}

# Carts for the order run: a fresh Cart-Token each, one tank top in it,
# made through the proxy.
makecarts() {
  python3 - "$lbport" "$carts" "$id" >"$tmp/tokens" <<'PY'
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    c.request("GET", "/wp-json/wc/store/v1/cart")
    r = c.getresponse(); r.read()
    tok = r.getheader("Cart-Token")
    c.request("POST", "/wp-json/wc/store/v1/cart/add-item", json.dumps({"id": int(sys.argv[3]), "quantity": 1}),
              {"Cart-Token": tok, "Content-Type": "application/json"})
    r = c.getresponse(); r.read()
    if r.status != 201:
        sys.exit("add-item: %d" % r.status)
    print("Cart-Token: " + tok)
PY
}

sample() { # wait events of active backends, every 0.2 s, until killed
  while :; do
    psqlq "SELECT coalesce(wait_event_type,'CPU')||':'||coalesce(wait_event,'-') FROM pg_stat_activity
           WHERE datname = '$dbname' AND state = 'active' AND pid <> pg_backend_pid()" || true
    psqlq "SELECT 'ungranted_locks:'||count(*) FROM pg_locks WHERE NOT granted" || true
    sleep 0.2
  done
}

run() { # name, then vitrine-load flags
  local name=$1; shift
  if [[ -n ${ONLY:-} && $name != "$ONLY" ]]; then return; fi
  for r in $(seq "$runs"); do
    local extra=()
    if [[ $name == orders ]]; then
      makecarts
      extra=(-warmup 0 -n "$carts")
      psqlq "SELECT pg_stat_reset_shared('wal')" >/dev/null
      local x0
      x0=$(psqlq "SELECT xact_commit FROM pg_stat_database WHERE datname = '$dbname'")
      sample >"$tmp/samples" &
      local sp=$!
    else
      extra=(-warmup 2s)
    fi
    printf '{"label":"%s","instances":%d,"scenario":"%s","run":%d,"result":%s}\n' "$label" "$n" "$name" "$r" \
      "$("$load" -c "$conc" -d "$dur" -json "${extra[@]}" "$@")"
    if [[ $name == orders ]]; then
      kill "$sp"; wait "$sp" 2>/dev/null || true
      echo "# postgres during orders run $r: commits $(( $(psqlq "SELECT xact_commit FROM pg_stat_database WHERE datname = '$dbname'") - x0 ))," \
        "wal $(psqlq "SELECT 'records '||wal_records||', bytes '||pg_size_pretty(wal_bytes)||', fpi '||wal_fpi||', buffers_full '||wal_buffers_full||', writes '||wal_write||', syncs '||wal_sync FROM pg_stat_wal")"
      echo "# wait events (samples of active backends):"
      sort "$tmp/samples" | uniq -c | sort -rn | head -12 | sed 's/^/#   /'
      metrics | sed 's/^/# /'
    fi
  done
}
H='Accept-Encoding: gzip, deflate, br, zstd'
run product -H "$H" -url "$base/product/classic-tee/"
run wcajax -method POST -H 'Content-Type: application/x-www-form-urlencoded' \
  -body "product_id=$id&quantity=1" -url "$base/?wc-ajax=add_to_cart"
billing='{"first_name":"Ada","last_name":"Lovelace","address_1":"1 Main St","city":"Sacramento","state":"CA","postcode":"95814","country":"US","email":"ada@example.com","phone":"+1 555 010 0200"}'
run orders -method POST -H 'Content-Type: application/json' -H-file "$tmp/tokens" \
  -body "{\"billing_address\":$billing,\"payment_method\":\"bacs\"}" -url "$base/wp-json/wc/store/v1/checkout"
echo "# max connections used: $(psqlq "SELECT count(*) FROM pg_stat_activity WHERE datname = '$dbname'") now open on $dbname"
