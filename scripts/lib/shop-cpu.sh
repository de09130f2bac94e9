# Sourced by the bench scripts that run the real binary (bench-raw-renders.sh,
# bench-pages.sh): wait_ready PORT waits for the shop to answer; ticks PID
# prints the CPU ticks (utime + stime) of the shop and of its children (the
# render workers), "shop workers".
wait_ready() {
  for _ in $(seq 100); do curl -fs "http://127.0.0.1:$1/readyz" >/dev/null && return; sleep 0.2; done
}
ticks() {
  local t s c
  t=$(awk '{print $14 + $15}' "/proc/$1/stat")
  s=0
  for c in $(pgrep -P "$1"); do s=$((s + $(awk '{print $14 + $15}' "/proc/$c/stat"))); done
  echo "$t $s"
}
