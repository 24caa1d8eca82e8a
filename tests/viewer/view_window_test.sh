#!/bin/sh
# The viewer (`spindrift view`, docs/viewer.md) from the outside, run by ctest:
#
#   matches_render SPINDRIFT SOURCE_DIR INPUT BACKEND
#       Under a virtual X display of its own (Xvfb -displayfd: the server takes a free display
#       number itself, so tests running side by side never race for one), plays INPUT for 3
#       frames from t = 0.5 s in a 96x64 window, screenshots the last frame and compares it with
#       `spindrift render` of the same frames: byte for byte, because the viewer's screenshot is
#       the frame the renderer drew (the scene frame, without the overlay) through the same scene
#       player. Also checks that the screenshot is not the first frame's render, so the comparison
#       would notice a viewer clock that is off by a frame. The overlay is hidden and the window
#       has the frame's size, so the window as presented (read back from the swapchain image,
#       --window-screenshot) must be the frame too: the upload, the blit and the present.
#   overlay_drawn SPINDRIFT SOURCE_DIR
#       The same with the overlay shown: the window differs from the frame (the panel is drawn
#       over it) and the frame screenshot is still the scene frame alone.
#   no_display SPINDRIFT SOURCE_DIR
#       DISPLAY and WAYLAND_DISPLAY unset: one clear "no display" error, exit 1.
#   unreachable_display SPINDRIFT SOURCE_DIR
#       DISPLAY names a server that is not there: GLFW cannot start, the same error, exit 1.
#   keys_and_mouse SPINDRIFT SOURCE_DIR
#       An interactive run, driven through the X server with xdotool (XTest, as a user would):
#       paused at 0.5 s, P writes a screenshot equal to `spindrift render --time 0.5`; a left
#       drag orbits the camera (the next screenshot differs); Home returns to the scene camera
#       (equal again); . steps one frame (the screenshot is render's next frame, which differs);
#       B switches to the GPU backend (it says so; the screenshot equals `render --backend gpu`
#       at the same time); saving a broken effect is reported and the frame stays; saving a
#       valid change (another seed) reloads it at the same time and backend (the screenshot is
#       render's of the new file); Escape quits with exit 0.
#   refuses_input_output SPINDRIFT SOURCE_DIR
#       --screenshot naming the input is refused before any window opens (docs/cli.md, "Outputs"):
#       exit 1, the input untouched.
#
# Exit 77 (ctest: skipped) only when Xvfb (or, for keys_and_mouse, xdotool) is not installed
# (scripts/install-deps.sh lists both).
set -eu

mode=$1
cli=$2
src=$3
tmp=$(mktemp -d)
xvfb_pid=""
viewer_pid=""
cleanup() {
    if [ -n "$viewer_pid" ]; then kill "$viewer_pid" 2>/dev/null || true; fi
    if [ -n "$xvfb_pid" ]; then kill "$xvfb_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT
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

# Starts Xvfb on a free display and sets DISPLAY to it.
start_xvfb() {
    Xvfb -displayfd 3 -screen 0 320x240x24 -nolisten tcp 3>"$tmp/display" 2>"$tmp/xvfb.log" &
    xvfb_pid=$!
    tries=0
    while [ ! -s "$tmp/display" ]; do
        kill -0 "$xvfb_pid" 2>/dev/null || fail "Xvfb did not start: $(cat "$tmp/xvfb.log")"
        tries=$((tries + 1))
        [ "$tries" -le 200 ] || fail "Xvfb gave no display number within 20 s"
        sleep 0.1
    done
    DISPLAY=":$(head -n 1 "$tmp/display")"
    export DISPLAY
    unset WAYLAND_DISPLAY
}

case "$mode" in
matches_render)
    input="$src/$4"
    backend=$5
    if ! command -v Xvfb >/dev/null 2>&1; then
        echo "Xvfb is not installed (apt install xvfb): skipped"
        exit 77
    fi
    start_xvfb
    "$cli" view "$input" --size 96x64 --time 0.5 --frames 3 --backend "$backend" \
        --screenshot "$tmp/view.png" --window-screenshot "$tmp/window.png" --hide-overlay \
        >"$tmp/view.log" 2>&1 ||
        fail "spindrift view failed: $(cat "$tmp/view.log")"
    "$cli" render "$input" --size 96x64 --time 0.5 --frames 3 --backend "$backend" \
        -o "$tmp/render_%d.png" -q || fail "spindrift render failed"
    [ -s "$tmp/view.png" ] || fail "no screenshot written"
    cmp "$tmp/view.png" "$tmp/render_2.png" ||
        fail "the viewer's frame at t = 0.5 + 2/fps differs from spindrift render's"
    if cmp -s "$tmp/view.png" "$tmp/render_0.png"; then
        fail "the last frame equals the first: the input does not move, the test proves nothing"
    fi
    cmp "$tmp/window.png" "$tmp/view.png" ||
        fail "the window as presented differs from the frame (overlay hidden, same size)"
    ;;
overlay_drawn)
    if ! command -v Xvfb >/dev/null 2>&1; then
        echo "Xvfb is not installed (apt install xvfb): skipped"
        exit 77
    fi
    start_xvfb
    "$cli" view "$effect" --size 160x120 --time 0.5 --frames 2 --screenshot "$tmp/view.png" \
        --window-screenshot "$tmp/window.png" >"$tmp/view.log" 2>&1 ||
        fail "spindrift view failed: $(cat "$tmp/view.log")"
    "$cli" render "$effect" --size 160x120 --time 0.5 --frames 2 -o "$tmp/render_%d.png" -q ||
        fail "spindrift render failed"
    cmp "$tmp/view.png" "$tmp/render_1.png" || fail "the screenshot is not the scene frame alone"
    [ -s "$tmp/window.png" ] || fail "no window screenshot written"
    if cmp -s "$tmp/window.png" "$tmp/view.png"; then
        fail "the window equals the frame: the overlay was not drawn"
    fi
    ;;
no_display)
    expect_no_display env -u DISPLAY -u WAYLAND_DISPLAY "$cli" view "$effect"
    ;;
unreachable_display)
    # A display number no X server uses (the socket does not exist).
    expect_no_display env -u WAYLAND_DISPLAY DISPLAY=:4099 "$cli" view "$effect"
    ;;
keys_and_mouse)
    for tool in Xvfb xdotool; do
        if ! command -v "$tool" >/dev/null 2>&1; then
            echo "$tool is not installed (scripts/install-deps.sh): skipped"
            exit 77
        fi
    done
    start_xvfb
    # A copy, so the test can save changes to it (it names no texture or mesh).
    fx="$tmp/align_velocity.json"
    cp "$src/tests/golden/effects/align_velocity.json" "$fx"
    sed 's/"seed": 7,/"seed": 8,/' "$fx" >"$tmp/reseeded.json"
    cmp -s "$fx" "$tmp/reseeded.json" && fail "the seed was not changed"
    "$cli" render "$tmp/reseeded.json" --size 160x120 --time 0.5 --frames 2 --backend gpu \
        -o "$tmp/reseeded_gpu_%d.png" -q
    "$cli" render "$fx" --size 160x120 --time 0.5 --frames 2 -o "$tmp/render_%d.png" -q
    "$cli" render "$fx" --size 160x120 --time 0.5 --frames 2 --backend gpu \
        -o "$tmp/render_gpu_%d.png" -q
    cp "$tmp/render_0.png" "$tmp/render_cpu.png"
    if cmp -s "$tmp/render_0.png" "$tmp/render_1.png"; then
        fail "the effect does not move between frames: the step check would prove nothing"
    fi
    # Screenshots go to the current folder as align_velocity_view_NNNN.png.
    (cd "$tmp" && exec "$cli" view "$fx" --size 160x120 --time 0.5 --paused --hide-overlay \
        >"$tmp/view.log" 2>&1) &
    viewer_pid=$!
    # Waits up to 60 s for a file, or for a line in the viewer's log.
    wait_for() {
        tries=0
        until [ -s "$1" ] && { [ -z "${2:-}" ] || grep -q "$2" "$1"; }; do
            kill -0 "$viewer_pid" 2>/dev/null || fail "the viewer exited: $(cat "$tmp/view.log")"
            tries=$((tries + 1))
            [ "$tries" -le 600 ] || fail "waited 60 s for $1 ${2:-}: $(cat "$tmp/view.log")"
            sleep 0.1
        done
    }
    xdotool search --sync --name "spindrift view" >/dev/null
    xdotool mousemove 80 60
    sleep 0.5
    xdotool key p
    wait_for "$tmp/align_velocity_view_0001.png"
    cmp "$tmp/align_velocity_view_0001.png" "$tmp/render_cpu.png" ||
        fail "the paused frame differs from spindrift render --time 0.5"
    xdotool mousedown 1
    sleep 0.3
    xdotool mousemove 130 70
    sleep 0.3
    xdotool mousemove 140 75
    sleep 0.3
    xdotool mouseup 1
    xdotool key p
    wait_for "$tmp/align_velocity_view_0002.png"
    if cmp -s "$tmp/align_velocity_view_0002.png" "$tmp/render_cpu.png"; then
        fail "the drag did not move the camera"
    fi
    xdotool key Home
    sleep 0.3
    xdotool key p
    wait_for "$tmp/align_velocity_view_0003.png"
    cmp "$tmp/align_velocity_view_0003.png" "$tmp/render_cpu.png" ||
        fail "Home did not return to the scene camera"
    xdotool key period
    sleep 0.3
    xdotool key p
    wait_for "$tmp/align_velocity_view_0004.png"
    cmp "$tmp/align_velocity_view_0004.png" "$tmp/render_1.png" ||
        fail "the step did not give the next frame"
    xdotool key b
    wait_for "$tmp/view.log" "switched to the gpu backend"
    xdotool key p
    wait_for "$tmp/align_velocity_view_0005.png"
    cmp "$tmp/align_velocity_view_0005.png" "$tmp/render_gpu_1.png" ||
        fail "after B the frame is not spindrift render --backend gpu's"
    # A save that does not load: reported, and the previous version keeps drawing.
    printf '{ "version": 1, "emitters": [ oops ] }\n' >"$fx.tmp"
    mv "$fx.tmp" "$fx"
    wait_for "$tmp/view.log" "does not load"
    grep -q "align_velocity.json:1:" "$tmp/view.log" || fail "no diagnostic with its line"
    xdotool key p
    wait_for "$tmp/align_velocity_view_0006.png"
    cmp "$tmp/align_velocity_view_0006.png" "$tmp/render_gpu_1.png" ||
        fail "a broken save changed the frame"
    # A valid save: drawn at the same time, on the same backend, as render draws the new file.
    cp "$tmp/reseeded.json" "$fx.tmp"
    mv "$fx.tmp" "$fx"
    wait_for "$tmp/view.log" "reloaded"
    xdotool key p
    wait_for "$tmp/align_velocity_view_0007.png"
    cmp "$tmp/align_velocity_view_0007.png" "$tmp/reseeded_gpu_1.png" ||
        fail "the reloaded frame is not render's of the new file"
    if cmp -s "$tmp/reseeded_gpu_1.png" "$tmp/render_gpu_1.png"; then
        fail "the new seed draws the same frame: the reload check proves nothing"
    fi
    xdotool key Escape
    set +e
    wait "$viewer_pid"
    code=$?
    set -e
    viewer_pid=""
    [ "$code" -eq 0 ] || fail "the viewer exited with $code after Escape: $(cat "$tmp/view.log")"
    ;;
refuses_input_output)
    cp "$src/examples/effects/fountain.json" "$tmp/fx.json"
    set +e
    # The display is never reached: the output is checked first.
    env -u WAYLAND_DISPLAY DISPLAY=:4099 "$cli" view "$tmp/fx.json" --frames 1 \
        --screenshot "$tmp/fx.json" >"$tmp/out" 2>"$tmp/err"
    code=$?
    set -e
    [ "$code" -eq 1 ] || fail "exit code $code, expected 1"
    grep -q "is the input" "$tmp/err" || fail "no refusal naming the input: $(cat "$tmp/err")"
    cmp "$tmp/fx.json" "$src/examples/effects/fountain.json" || fail "the input was changed"
    ;;
*)
    fail "unknown mode '$mode'"
    ;;
esac
echo "ok"
