#!/usr/bin/env bash
# The Go tests on another day: runs `go test` with Go's time.Now reading
# DAYS days ahead of this machine's clock (negative: behind), as on a
# machine whose clock was set then. Go reads the clock without libc, so
# the OS clock cannot be faked for it; instead the standard library's
# time.Now is replaced for this build only, through `go test -overlay`
# (a copy of GOROOT's time.go plus one file, in a temporary directory; the
# toolchain itself is untouched, and no product code has a test-only
# clock). The overlay and the shift reach the binaries tests build and
# start themselves (GOFLAGS, the environment). Its builds use their own
# GOCACHE (one build serves every DAYS), so the normal cache stays as it
# is. Monotonic time is not moved.
#
#   scripts/calendar-go.sh DAYS [go test arguments]    (default: -count=1 ./...)
#
# e.g. VITRINE_TEST_POSTGRES=... scripts/calendar-go.sh 730 -count=1 -p 1 ./...
# See docs/decisions/0062-tests-calendar.md.
set -euo pipefail
days=${1:?usage: calendar-go.sh DAYS [go test arguments]}
shift
[[ $days =~ ^-?[0-9]+$ ]] || { echo "DAYS must be a whole number: $days" >&2; exit 2; }
[[ $# -gt 0 ]] || set -- -count=1 ./...
root=$(cd "$(dirname "$0")/.." && pwd)
goroot=$(go env GOROOT)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp "$goroot/src/time/time.go" "$work/time.go"
python3 - "$work/time.go" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
old = "func Now() Time {\n\tsec, nsec, mono := runtimeNow()\n"
if s.count(old) != 1:
    sys.exit("time.Now's body is not the expected one; update scripts/calendar-go.sh")
open(p, "w").write(s.replace(old, old + "\tsec += calendarShift\n"))
PY

cat >"$work/calendar.go" <<'GO'
package time

import "syscall"

// calendarShift moves the wall clock Now reads by VITRINE_CALENDAR_DAYS
// days (scripts/calendar-go.sh). Read at start: one build serves every
// shift, and the binaries the tests start read the same.
var calendarShift = func() int64 {
	v, _ := syscall.Getenv("VITRINE_CALENDAR_DAYS")
	neg := len(v) > 0 && v[0] == '-'
	if neg {
		v = v[1:]
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n * 86400
}()
GO

printf '{"Replace": {"%s": "%s", "%s": "%s"}}\n' \
  "$goroot/src/time/time.go" "$work/time.go" \
  "$goroot/src/time/calendar_shift.go" "$work/calendar.go" >"$work/overlay.json"

cache=${CALENDAR_GOCACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vitrine-calendar-go}
echo "Go tests with time.Now $days days ahead: $(date -u -d "$days days" +%Y-%m-%dT%H:%MZ)" >&2
cd "$root"
VITRINE_CALENDAR_DAYS=$days GOCACHE=$cache GOFLAGS="${GOFLAGS:+$GOFLAGS }-overlay=$work/overlay.json" go test "$@"
