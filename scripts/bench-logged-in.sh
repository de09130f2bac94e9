#!/usr/bin/env bash
# Logged-in pages through the real binary (SQLite, demo shop): a customer
# and a shop manager log in through the storefront's own login form (a
# solved ALTCHA payload, as the widget computes it), then vitrine-load
# asks for the home page, the shop listing, a category and a product page
# with their session cookie, c=32 for 10 s after a 2 s warm-up, with
# Accept-Encoding as a browser sends it. The same pages for a visitor come
# first, for comparison. One JSON line per scenario.
#
#   scripts/bench-logged-in.sh BINARY [LABEL]
#
# Only loopback traffic; the server and its temporary store are removed at
# the end. See docs/benchmarks.md for the figures.
set -euo pipefail
bin=${1:?usage: bench-logged-in.sh BINARY [LABEL]}
label=${2:-$(basename "$bin")}
conc=${C:-32}
dur=${D:-10s}
port=${PORT:-18183}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
load="$tmp/vitrine-load"
(cd "$root" && go build -o "$load" ./cmd/vitrine-load)
db="sqlite:$tmp/v.db"
password='a long benchmark passphrase'
for who in customer shop_manager; do
  printf '%s\n' "$password" | "$bin" --db "$db" user create --email "$who@example.com" --role "$who" --password-stdin >/dev/null
done
"$bin" --demo --addr "127.0.0.1:$port" --metrics-addr '' --db "$db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done

# login EMAIL: the session cookie (name=value) of a login through the form.
login() {
  python3 - "$root/scripts/lib" "$base" "$1" "$password" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import shop_login
_, jar = shop_login.login(*sys.argv[2:5])
print("; ".join(f"{k.name}={k.value}" for k in jar if k.name.startswith("wordpress_logged_in")))
PY
}
customer=$(login customer@example.com)
manager=$(login shop_manager@example.com)
# The logged-in page must be the cached page with the viewer's part.
curl -fs -H "Cookie: $customer" "$base/product/classic-tee/" | grep -q '"display_name"' ||
  { echo "bench-logged-in: no viewer part for the customer" >&2; exit 1; }

enc='Accept-Encoding: gzip, deflate, br, zstd'
for page in / /shop/ /product-category/clothing/ /product/classic-tee/; do
  curl -fs -o /dev/null -H "$enc" "$base$page" # cached by a visitor first
  for who in visitor customer manager; do
    case $who in
      visitor) cookie=() ;;
      customer) cookie=(-H "Cookie: $customer") ;;
      manager) cookie=(-H "Cookie: $manager") ;;
    esac
    printf '{"label":"%s","page":"%s","viewer":"%s","result":%s}\n' "$label" "$page" "$who" \
      "$("$load" -c "$conc" -d "$dur" -json -H "$enc" "${cookie[@]}" -url "$base$page")"
  done
done
