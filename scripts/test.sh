#!/bin/sh
# Quick start, tests: install what is missing, build the test build (ASan +
# UBSan, -Werror) and run every test CTest knows except the "slow" label
# (long validation sweeps; run them with `ctest -L slow`).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DDSE_SANITIZE=ON \
  -DDSE_WERROR=ON >/dev/null
cmake --build build-test -j"$(nproc)"
cd build-test
exec ctest --output-on-failure -j"$(nproc)" -LE slow
