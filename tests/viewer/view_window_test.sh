#!/bin/sh
# The viewer (`spindrift view`, docs/viewer.md) from the outside, run by ctest:
#
#   matches_render SPINDRIFT SOURCE_DIR INPUT BACKEND
#       Under a virtual X display (xvfb-run -a picks a free display number), plays INPUT for 3
#       frames from t = 0.5 s in a 96x64 window, screenshots the last frame and compares it with
#       `spindrift render` of the same frames: byte for byte, because the viewer's screenshot is
#       the frame the renderer drew (the scene frame, without the overlay) through the same scene
#       player. Also checks that the screenshot is not the first frame's render, so the comparison
#       would notice a viewer clock that is off by a frame.
#   no_display SPINDRIFT SOURCE_DIR
#       DISPLAY and WAYLAND_DISPLAY unset: one clear "no display" error, exit 1.
#   unreachable_display SPINDRIFT SOURCE_DIR
#       DISPLAY names a server that is not there: GLFW cannot start, the same error, exit 1.
#
# Exit 77 (ctest: skipped) only when xvfb-run is not installed (scripts/install-deps.sh lists it).
set -eu

mode=$1
cli=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
effect="$src/examples/effects/campfire.json"

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

expect_no_display() {
    set +e
    "$@" >"$tmp/out" 2>"$tmp/err"
    code=$?
    set -e
    [ "$code" -eq 1 ] || fail "exit code $code, expected 1; stderr: $(cat "$tmp/err")"
    grep -q '^error: no display' "$tmp/err" || fail "no 'error: no display' line: $(cat "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line on stderr: $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "stdout not empty: $(cat "$tmp/out")"
}

case "$mode" in
matches_render)
    input="$src/$4"
    backend=$5
    if ! command -v xvfb-run >/dev/null 2>&1; then
        echo "xvfb-run is not installed (apt install xvfb xauth): skipped"
        exit 77
    fi
    xvfb-run -a -s "-screen 0 320x240x24" \
        "$cli" view "$input" --size 96x64 --time 0.5 --frames 3 --backend "$backend" \
        --screenshot "$tmp/view.png" >"$tmp/view.log" 2>&1 ||
        fail "spindrift view failed: $(cat "$tmp/view.log")"
    "$cli" render "$input" --size 96x64 --time 0.5 --frames 3 --backend "$backend" \
        -o "$tmp/render_%d.png" -q || fail "spindrift render failed"
    [ -s "$tmp/view.png" ] || fail "no screenshot written"
    cmp "$tmp/view.png" "$tmp/render_2.png" ||
        fail "the viewer's frame at t = 0.5 + 2/fps differs from spindrift render's"
    if cmp -s "$tmp/view.png" "$tmp/render_0.png"; then
        fail "the last frame equals the first: the input does not move, the test proves nothing"
    fi
    ;;
no_display)
    expect_no_display env -u DISPLAY -u WAYLAND_DISPLAY "$cli" view "$effect"
    ;;
unreachable_display)
    # A display number no X server uses (the socket does not exist).
    expect_no_display env -u WAYLAND_DISPLAY DISPLAY=:4099 "$cli" view "$effect"
    ;;
*)
    fail "unknown mode '$mode'"
    ;;
esac
echo "ok"
