#!/usr/bin/env bash
# The before/after images of every sample effect in docs/rendering.md ("The samples, before and
# after"): each sample's default still (`spindrift render EFFECT`: its default scene, framing and
# still time), drawn by the BEFORE revision's tool from that revision's samples and by this
# tree's tool (build/bin/spindrift, release preset) from this tree's samples, side by side in
# docs/images/samples/<name>.png (320x180 tiles, a 4-pixel gap, PNG level 9); and the same for a
# 4-frame contact sheet over the effect's duration (`--contact-sheet 4`, 240x135 cells) in
# docs/images/samples/<name>_sheet.png. Lavapipe or any Vulkan device; a minute or two for the
# renders, plus the BEFORE build when it is not cached.
#
# Usage: scripts/sample-sheets.sh [BEFORE_REV]      (default cbf747a: main before issue 17, item 8)
# BEFORE_REV's tool is built from `git archive BEFORE_REV` in build/sheet-before/, unless
# SPINDRIFT_BEFORE_CLI names a spindrift binary already built from it.
set -euo pipefail
cd "$(dirname "$0")/.."

before_rev=${1:-cbf747a}
tile=320x180
sheet_cell=240x135
out=docs/images/samples
work=build/sheet-before
mkdir -p "$work" "$out"

# BEFORE's samples (and, when needed, its sources) from git, never from this tree.
rm -rf "$work/src"
mkdir -p "$work/src"
git archive "$before_rev" | tar -x -C "$work/src"
before_cli=${SPINDRIFT_BEFORE_CLI:-}
if [[ -z "$before_cli" ]]; then
    (cd "$work/src" && cmake --preset release >/dev/null &&
        cmake --build --preset release -j "$(nproc)" --target spindrift_cli)
    before_cli=$work/src/build/bin/spindrift
fi

cmake --build --preset release -j "$(nproc)" --target spindrift_cli
after_cli=build/bin/spindrift

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# side_by_side BEFORE.png AFTER.png OUT.png: written beside the output, then renamed, so a failed
# run leaves the old image.
side_by_side() {
    ffmpeg -loglevel error -y -i "$1" -i "$2" \
        -filter_complex "[0]pad=iw+4:ih:0:0:color=0x808080[b];[b][1]hstack" \
        -compression_level 9 -frames:v 1 "$tmp/side.png"
    mv "$tmp/side.png" "$3"
    echo "sample-sheets: $3"
}
for effect in examples/effects/*.json; do
    name=$(basename "$effect" .json)
    before_effect=$work/src/examples/effects/$name.json
    for kind in still sheet; do
        if [[ $kind == still ]]; then
            options=(--size "$tile")
            suffix=""
        else
            options=(--size "$sheet_cell" --contact-sheet 4)
            suffix=_sheet
        fi
        if [[ -f "$before_effect" ]]; then
            "$before_cli" render "$before_effect" -o "$tmp/before.png" "${options[@]}" --quiet
        fi
        "$after_cli" render "$effect" -o "$tmp/after.png" "${options[@]}" --quiet
        if [[ ! -f "$before_effect" ]]; then
            # A sample new since BEFORE: a black image of the same size on its left.
            ffmpeg -loglevel error -y -i "$tmp/after.png" -vf "drawbox=c=black:t=fill" \
                "$tmp/before.png"
        fi
        side_by_side "$tmp/before.png" "$tmp/after.png" "$out/$name$suffix.png"
        rm -f "$tmp/before.png" "$tmp/after.png"
    done
done
du -ch "$out"/*.png | tail -1
