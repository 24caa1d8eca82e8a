#!/usr/bin/env bash
# The main job: build the CLI, then validate, cook and inspect every sample effect.
# Cooked files go to build/cooked/.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target spindrift_cli

cli=build/bin/spindrift
mkdir -p build/cooked
"$cli" validate examples/effects
for effect in examples/effects/*.json; do
    "$cli" cook "$effect" -o "build/cooked/$(basename "${effect%.json}").sfx"
done
"$cli" inspect build/cooked/campfire.sfx
