#!/usr/bin/env bash
# Regenerates the golden images in tests/golden/expected/ from the current renderer (lavapipe),
# then shows which changed. Look at every changed image before committing it.
# Usage: scripts/update-goldens.sh [build-dir]   (default: build, the release preset)
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
cmake --build "$build_dir" --target golden_test
SPINDRIFT_UPDATE_GOLDEN=1 "$build_dir/bin/golden_test" --gtest_filter='Scenes/*'
git status --short tests/golden/expected/
