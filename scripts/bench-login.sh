#!/usr/bin/env bash
# Login throughput through the real binary, on SQLite: admin-ajax
# wordfence_ls_authenticate with the right password (argon2id verify, the
# bot-check proof verified and spent, the failure counters cleared, a
# signed proof issued) and the real form POST /my-account/ that starts a
# session. Every request carries its own solved ALTCHA payload (single
# use), solved here before the run like the widget would; so the run is
# bounded by the number of payloads (LOGINS, default 1500); no warm-up, so
# no payload is used twice. C sets the
# concurrency (default 4): every login comes from 127.0.0.1, and the
# failure limit counts an attempt against the address (and the account)
# before the password is checked, taking it back after a right one, so
# more than 5 in flight at once from one address are refused as a lockout.
# One JSON line per scenario.
#
#   scripts/bench-login.sh BINARY [LABEL]
#
# Only loopback traffic; the server and its temporary store are removed at
# the end. See docs/benchmarks.md for the figures.
set -euo pipefail
bin=${1:?usage: bench-login.sh BINARY [LABEL]}
label=${2:-$(basename "$bin")}
logins=${LOGINS:-1500}
conc=${C:-4}
port=${PORT:-18182}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
load="$tmp/vitrine-load"
(cd "$root" && go build -o "$load" ./cmd/vitrine-load)
db="sqlite:$tmp/v.db"
email=bench@example.com password='a long benchmark passphrase'
printf '%s\n' "$password" | "$bin" --db "$db" user create --email "$email" --role customer --password-stdin >/dev/null
"$bin" --demo --addr "127.0.0.1:$port" --metrics-addr '' --db "$db" --log-level warn 2>"$tmp/server.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tmp"' EXIT
base="http://127.0.0.1:$port"
for _ in $(seq 100); do curl -fs "$base/readyz" >/dev/null && break; sleep 0.2; done

# bodies FILE N PREFIX: N form bodies, each PREFIX plus a fresh solved
# login payload in wfls-captcha (what the widget computes in the browser).
bodies() {
  python3 - "$base" "$2" "$3" >"$1" <<'PY'
import base64, hashlib, json, sys, urllib.parse, urllib.request
base, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for _ in range(n):
    c = json.load(urllib.request.urlopen(base + "/wp-json/vitrine/v1/botcheck/login"))
    salt, want = c["salt"], c["challenge"]
    num = next(i for i in range(c["maxnumber"] + 1) if hashlib.sha256((salt + str(i)).encode()).hexdigest() == want)
    payload = base64.b64encode(json.dumps({"algorithm": c["algorithm"], "challenge": want, "number": num,
                                           "salt": salt, "signature": c["signature"]}).encode()).decode()
    print(prefix + "&wfls-captcha=" + urllib.parse.quote(payload, safe=""))
PY
}

form='Content-Type: application/x-www-form-urlencoded'
cred="log=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1]))' "$email")&pwd=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1]))' "$password")"
bodies "$tmp/ajax" "$logins" "action=wordfence_ls_authenticate&$cred"
# The last body is kept out of the run: it must log in (a wrong setup would
# measure fast refusals instead of logins).
check=$(tail -n 1 "$tmp/ajax"); sed -i '$d' "$tmp/ajax"
curl -fs -X POST -H "$form" --data "$check" "$base/wp-admin/admin-ajax.php" | grep -q '"login":1' ||
  { echo "bench-login: the check login was refused" >&2; exit 1; }
printf '{"label":"%s","scenario":"ajax-authenticate","result":%s}\n' "$label" \
  "$("$load" -c "$conc" -n $((logins * 9 / 10)) -d 5m -warmup 0 -json -method POST -H "$form" -body-file "$tmp/ajax" -url "$base/wp-admin/admin-ajax.php")"

# The real form answers 303 to /my-account/ on success (counted under
# status_errors "303"), 4xx when refused. Its nonce is bound to the (absent) guest session, so one
# nonce from the page serves every request.
nonce=$(curl -fs "$base/my-account/" | python3 -c 'import re,sys; print(re.search(r"\"login_nonce\":\"([0-9a-f]+)\"", sys.stdin.read()).group(1))')
user="username=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1]))' "$email")&password=$(python3 -c 'import urllib.parse,sys;print(urllib.parse.quote(sys.argv[1]))' "$password")"
bodies "$tmp/form" "$logins" "$user&login=Log+in&woocommerce-login-nonce=$nonce"
printf '{"label":"%s","scenario":"form-login","result":%s}\n' "$label" \
  "$("$load" -c "$conc" -n $((logins * 9 / 10)) -d 5m -warmup 0 -json -method POST -H "$form" -body-file "$tmp/form" -url "$base/my-account/")"
