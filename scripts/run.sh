#!/usr/bin/env bash
# The main job: build the CLI, validate and cook every sample effect, then render the samples
# with the Vulkan renderer (on Mesa's lavapipe when the machine has no GPU): for each sample, a
# contact sheet out/<name>.png and a video out/<name>.mp4, plus the campfire scene as a video.
# Cooked files go to build/cooked/. A few minutes on two CPU cores.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target spindrift_cli

cli=build/bin/spindrift
mkdir -p build/cooked out
"$cli" validate examples/effects
for effect in examples/effects/*.json; do
    "$cli" cook "$effect" -o "build/cooked/$(basename "${effect%.json}").sfx"
done

# The samples the renderer draws: billboards, ribbons (sword_trail, fireworks' rocket trails),
# beams (lightning) and meshes (rockfall).
samples=(campfire smoke_plume spark_burst magic_orb portal_ring fountain snowfall fireworks
    lightning sword_trail rockfall)
for name in "${samples[@]}"; do
    echo "render: $name"
    "$cli" render "examples/effects/$name.json" -o "out/$name.png" --contact-sheet 9 \
        --size 480x270 --quiet
    "$cli" render "examples/effects/$name.json" -o "out/$name.mp4" --size 960x540 --quiet
done
echo "render: campfire_night (scene)"
"$cli" render examples/scenes/campfire_night.json -o out/campfire_night.mp4 --size 960x540 --quiet
"$cli" render examples/scenes/campfire_night.json -o out/campfire_night.png --size 960x540
echo "run: contact sheets and videos are in out/"
