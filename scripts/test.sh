#!/usr/bin/env bash
# Builds Spindrift and runs every test: the release build's tests, the same tests under
# AddressSanitizer + UndefinedBehaviorSanitizer, and each libFuzzer target for a bounded time.
# Usage: scripts/test.sh [--quick]   (--quick: release tests only)
# Environment: SPINDRIFT_FUZZ_SECONDS (default 60) per fuzz target.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
jobs=$(nproc)
quick=0
[ "${1:-}" = "--quick" ] && quick=1

step() { printf '\n=== %s (at %ds)\n' "$*" "$SECONDS"; }

step "clang-format check"
find src include tests tools bench fuzz -name '*.cpp' -o -name '*.h' |
    xargs clang-format --dry-run --Werror

step "release build + tests"
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs"
ctest --preset release

if ((quick)); then exit 0; fi

step "AddressSanitizer + UndefinedBehaviorSanitizer build + tests"
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --preset asan

step "fuzz targets (libFuzzer, ${SPINDRIFT_FUZZ_SECONDS:-60}s each)"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs" --target fuzzers
scripts/fuzz.sh build-fuzz "${SPINDRIFT_FUZZ_SECONDS:-60}"

step "all tests passed"
