#!/usr/bin/env bash
# Load runs of the hot paths against the real binary, on SQLite, c=32:
# a cached product page, Store API add-item to a fresh cart, and wc-ajax
# add_to_cart without a session. Each scenario runs RUNS times (default 3)
# with a 2 s warm-up and prints one JSON line per run. ONLY=<scenario>
# runs one scenario.
#
#   scripts/bench-hotpaths.sh BINARY [LABEL]
#
# Only loopback traffic; the server and its temporary store are removed at
# the end. See docs/benchmarks.md for the figures and how they were taken.
set -euo pipefail
bin=${1:?usage: bench-hotpaths.sh BINARY [LABEL]}
label=${2:-$(basename "$bin")}
runs=${RUNS:-3}
dur=${DURATION:-8s}
port=${PORT:-18181}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
load="$tmp/vitrine-load"
(cd "$root" && go build -o "$load" ./cmd/vitrine-load)
"$bin" --demo --addr "127.0.0.1:$port" --metrics-addr '' --db "sqlite:$tmp/v.db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done

# The demo's one simple product without managed stock (no line ever runs out).
id=$(curl -fs "$base/wp-json/wc/store/v1/products?search=tank&per_page=5" |
  python3 -c 'import json,sys; print(next(p["id"] for p in json.load(sys.stdin) if p["name"]=="Cotton Tank Top"))')

# Fresh Cart-Tokens, one per request (a GET without a session names a new
# one), fetched again before each add-item run so no cart is reused.
tokens() {
  python3 - "$port" "${TOKENS:-50000}" >"$tmp/tokens" <<'PY'
import http.client, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    c.request("GET", "/wp-json/wc/store/v1/cart")
    r = c.getresponse(); r.read()
    print("Cart-Token: " + r.getheader("Cart-Token"))
PY
}

run() { # name, then vitrine-load flags
  local name=$1; shift
  if [[ -n ${ONLY:-} && $name != "$ONLY" ]]; then return; fi
  for i in $(seq "$runs"); do
    if [[ $name == storeapi-* ]]; then tokens; fi
    printf '{"label":"%s","scenario":"%s","run":%d,"result":%s}\n' "$label" "$name" "$i" \
      "$("$load" -c 32 -d "$dur" -warmup 2s -json "$@")"
  done
}
H='Accept-Encoding: gzip, deflate, br, zstd'
run product-cached -H "$H" -url "$base/product/classic-tee/"
run storeapi-add-item-fresh -method POST -H 'Content-Type: application/json' -H-file "$tmp/tokens" \
  -body "{\"id\":$id,\"quantity\":1}" -url "$base/wp-json/wc/store/v1/cart/add-item"
run wcajax-add-to-cart-fresh -method POST -H 'Content-Type: application/x-www-form-urlencoded' \
  -body "product_id=$id&quantity=1" -url "$base/?wc-ajax=add_to_cart"
