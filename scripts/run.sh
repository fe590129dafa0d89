#!/bin/sh
# Quick start, main job: install what is missing, build the Release binary,
# and run `dse optimize` on the given study (default configs/vlsi_1024.yaml).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DDSE_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
exec ./build/dse optimize "${1:-configs/vlsi_1024.yaml}"
