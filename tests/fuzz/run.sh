#!/bin/sh
# run.sh — build the libFuzzer targets with clang and run each for a while
# (docs/fuzzing.md).  Usage: run.sh BUILD_DIR SECONDS [extra libFuzzer args]
#   BUILD_DIR  where the clang build goes (configured on first use)
#   SECONDS    -max_total_time of each target
# Exit status: 0 no finding, 1 a target crashed (its input is saved in
# BUILD_DIR/findings/), 77 clang or libFuzzer is unavailable (CTest
# counts that as skipped).  Uses a copy of the seed corpus so the
# repository's seeds stay as committed.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: run.sh BUILD_DIR SECONDS}
secs=${2:-20}
shift 2 || true
command -v clang >/dev/null 2>&1 || { echo "fuzz: clang not installed; skipped"; exit 77; }
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n){(void)d;(void)n;return 0;}\n' \
    > "${TMPDIR:-/tmp}/dse_fuzz_probe.c"
if ! clang -fsanitize=fuzzer "${TMPDIR:-/tmp}/dse_fuzz_probe.c" -o "${TMPDIR:-/tmp}/dse_fuzz_probe" 2>/dev/null; then
    echo "fuzz: clang cannot link libFuzzer (-fsanitize=fuzzer); skipped"
    exit 77
fi
rm -f "${TMPDIR:-/tmp}/dse_fuzz_probe.c" "${TMPDIR:-/tmp}/dse_fuzz_probe"
if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=clang cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Debug \
        -DDSE_FUZZ=ON -DDSE_TESTS=OFF -DDSE_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target fuzz_study fuzz_job -j2 >/dev/null
mkdir -p "$build/findings"
status=0
for t in study job; do
    work="$build/corpus-$t"
    mkdir -p "$work"
    cp "$src/tests/fuzz/corpus/$t"/* "$work/"
    echo "fuzz: $t for ${secs} s"
    if ! "$build/fuzz_$t" "$work" -max_total_time="$secs" -max_len=4096 \
         -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
         -artifact_prefix="$build/findings/$t-" "$@" 2>"$build/fuzz_$t.log"; then
        status=1
        echo "fuzz: $t found a failure; input in $build/findings/, log $build/fuzz_$t.log"
        tail -40 "$build/fuzz_$t.log"
    fi
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done" "$build/fuzz_$t.log" || true
done
exit $status
