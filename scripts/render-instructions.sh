#!/usr/bin/env bash
# render-instructions.sh BUNDLE PAGES [N]
# Instructions per server render, counted by valgrind (cachegrind), so the
# figure does not move with other load on the machine as CPU time does:
# BenchmarkRenderPageData renders PAGES (a JSON array of {url, data}, in
# turn) with BUNDLE (a web/dist/server/server.js), once N+10 times and once
# 2N+10 times; the difference divided by N is one render with the fragment
# cache warm (with N the number of pages, every page seen once before).
set -euo pipefail
bundle=$1 pages=$2 n=${3:-200}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(mktemp -d)/render.test
trap 'rm -rf "$(dirname "$bin")"' EXIT
(cd "$root" && go test -c -o "$bin" ./internal/render/)
# Valgrind does not know RDTSCP, which the Go runtime runs when one of its
# locks is contended (often under valgrind, whose threads take turns):
# GODEBUG turns the runtime's use of it off. A run that fails is an error.
count() {
  local out
  out=$(cd "$root/internal/render" && VITRINE_BENCH_BUNDLE=$bundle VITRINE_BENCH_PAGES=$pages GOMAXPROCS=1 GOGC=off \
    GODEBUG=cpu.rdtscp=off valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$bin" -test.run '^$' -test.bench RenderPageData -test.benchtime "$1x" 2>&1) || true
  if ! grep -q '^PASS' <<<"$out"; then
    printf 'render-instructions: the run of %s renders failed:\n%s\n' "$1" "$(tail -20 <<<"$out")" >&2
    return 1
  fi
  awk '/I *refs/ {gsub(",", "", $4); print $4}' <<<"$out"
}
a=$(count $((n + 10)))
b=$(count $((2 * n + 10)))
awk -v a="$a" -v b="$b" -v n="$n" 'BEGIN { printf "%.2f M instructions per render (warm)\n", (b - a) / n / 1e6 }'
