#!/bin/sh
# bench/farm_scale.sh — one study on the Redis farm with 1, 2, 4 ... workers.
#
#   sh bench/farm_scale.sh [-r DESIGNS] [STUDY.yaml] [WORKERS ...]
#
# Starts its own redis-server on a free loopback port (no persistence),
# then for each worker count W starts W `dse worker --jobs 1` processes on
# it and runs `dse optimize STUDY --redis` with a fresh key prefix and no
# result cache, so every job is simulated again.  Prints, per W, the
# coordinator's wall time, the workers' CPU time (all W, read from /proc
# before they are stopped), the recommendation and whether the results are
# those of the first W (the farm must give the same numbers bit for bit).
# With -r N the study's simulation budget (simulation.max_designs) is cut
# to N designs: with N = 2, round 1's two designs and the saturation
# screen after them, which is what makes a long study affordable to
# measure at several worker counts; the whole study is the default.
# Defaults: configs/vlsi_4096.yaml, workers 1 2 4 (each 1-999).  Needs the
# Release build (build/dse, or $DSE) and redis-server.  A bench: it
# asserts nothing; it exits 2 on bad arguments and 1 when a run fails.
set -eu
budget=""
usage() {
  echo "usage: sh bench/farm_scale.sh [-r DESIGNS] [STUDY.yaml]" \
    "[WORKERS ...]" >&2
  exit 2
}
# a count: digits only, 1 to 999
count_ok() {
  case $1 in ''|*[!0-9]*|0*) return 1 ;; esac
  [ "$1" -le 999 ]
}
if [ "${1:-}" = -r ]; then
  [ $# -ge 2 ] && count_ok "$2" || usage
  budget=$2
  shift 2
fi
study=${1:-configs/vlsi_4096.yaml}
[ $# -gt 0 ] && shift
workers=${*:-1 2 4}
for w in $workers; do count_ok "$w" || usage; done
[ -r "$study" ] && [ -f "$study" ] ||
  { echo "farm_scale: $study: not a readable file" >&2; exit 2; }
dse=${DSE:-build/dse}
[ -x "$dse" ] ||
  { echo "farm_scale: no $dse (build the Release first)" >&2; exit 1; }
command -v redis-server >/dev/null ||
  { echo "farm_scale: redis-server not found" >&2; exit 1; }

tmp=$(mktemp -d /tmp/dse-farm-scale.XXXXXX)
redis_pid=""
worker_pids=""
optimize_pid=""
# the coordinator and the workers first, and Redis only once they are
# gone: a worker stopping finishes its job and acknowledges it there
cleanup() {
  for p in $optimize_pid $worker_pids; do kill "$p" 2>/dev/null || true; done
  for p in $optimize_pid $worker_pids; do wait "$p" 2>/dev/null || true; done
  [ -n "$redis_pid" ] && kill "$redis_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

if [ -n "$budget" ]; then
  # the study with its simulation budget cut: max_designs under simulation
  awk -v b="$budget" '
    /^simulation:/ { print; print "  max_designs: " b; insim = 1; next }
    insim && /^  max_designs:/ { next }
    /^[^ #]/ { insim = 0 }
    { print }' "$study" > "$tmp/study.yaml"
  grep -q "^simulation:" "$tmp/study.yaml" ||
    printf 'simulation:\n  max_designs: %s\n' "$budget" >> "$tmp/study.yaml"
  run_study=$tmp/study.yaml
else
  run_study=$study
fi

# a free loopback port: redis-server refuses a port in use, so try a few
port=""
for try in 1 2 3 4 5 6 7 8; do
  p=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
  redis-server --bind 127.0.0.1 --port "$p" --save '' --appendonly no \
    --daemonize no --loglevel warning > "$tmp/redis.log" 2>&1 &
  redis_pid=$!
  sleep 0.5
  if kill -0 "$redis_pid" 2>/dev/null; then port=$p; break; fi
  redis_pid=""
done
[ -n "$port" ] || { echo "farm_scale: no redis-server started" >&2; exit 1; }
url=redis://127.0.0.1:$port

# CPU seconds of a process that has not yet been reaped: utime + stime of
# it and its reaped children, from /proc/PID/stat
cpu_of() {
  awk -v hz="$(getconf CLK_TCK)" '{
    sub(/^.*\) /, "");
    print ($12 + $13 + $14 + $15) / hz }' "/proc/$1/stat"
}

echo "study $study${budget:+ (max_designs $budget)}, farm on $url"
printf '%8s %9s %12s %10s  %s\n' workers "wall s" "workers cpu" "same" \
  recommendation
first=""
for w in $workers; do
  prefix="bench$w-$$:"
  worker_pids=""
  i=0
  while [ "$i" -lt "$w" ]; do
    "$dse" worker --redis "$url" --prefix "$prefix" --jobs 1 -q \
      > "$tmp/worker$w.$i.log" 2>&1 &
    worker_pids="$worker_pids $!"
    i=$((i + 1))
  done
  t0=$(date +%s.%N)
  # in the background, so that an interrupt reaches the trap at once
  "$dse" optimize "$run_study" --redis "$url" --prefix "$prefix" \
    --no-cache -q --json -o "$tmp/out$w" > "$tmp/summary$w.json" \
    2> "$tmp/optimize$w.log" &
  optimize_pid=$!
  if ! wait "$optimize_pid"; then
    echo "farm_scale: dse optimize failed with $w workers:" >&2
    cat "$tmp/optimize$w.log" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  cpu=0
  for p in $worker_pids; do
    c=$(cpu_of "$p")
    cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN { print a + b }')
    kill "$p" 2>/dev/null || true
  done
  wait $worker_pids 2>/dev/null || true
  worker_pids=""
  rec=$(awk -F'"' '/"design":/ { d = $4 }
    /"recommended": *true/ { print d }' "$tmp/summary$w.json")
  # the results without their timings (the file's last member):
  # identical for every W
  sed '/"timings_s"/,$d' "$tmp/out$w/results.json" > "$tmp/cmp$w.json"
  if [ -z "$first" ]; then
    first=$w
    same="-"
  elif cmp -s "$tmp/cmp$first.json" "$tmp/cmp$w.json"; then
    same="yes"
  else
    same="NO"
  fi
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  printf '%8s %9.1f %12.1f %10s  %s\n' "$w" "$wall" \
    "$cpu" "$same" "$rec"
done
