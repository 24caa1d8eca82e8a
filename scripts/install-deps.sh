#!/usr/bin/env bash
# Installs what Spindrift needs to build, test and fuzz on Debian 12, through apt.
# Safe to run again: it installs only what is missing. Needs root (or sudo).
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config
    clang libclang-rt-14-dev          # libFuzzer targets
    clang-format
    libgtest-dev libgmock-dev libbenchmark-dev
    libtinyobjloader-dev                       # OBJ meshes of mesh particles
    nlohmann-json3-dev libcli11-dev libglm-dev libpng-dev
    python3 python3-jsonschema
    mesa-vulkan-drivers libvulkan-dev glslc    # the renderer; lavapipe runs it without a GPU
    vulkan-validationlayers                    # the renderer tests run with validation on
    ffmpeg                                     # MP4 output of spindrift render
    libglfw3-dev libimgui-dev                  # spindrift view: window and overlay
    xvfb xauth                                 # the viewer's test runs under a virtual display
    xdotool                                    # the viewer's test presses its keys, drags its mouse
    python3-numpy python3-pytest               # the Python package and its tests
    libcpp-httplib-dev                         # spindrift edit: the editor's HTTP server
    chromium                                   # the editor's end-to-end test (headless)
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The editor's end-to-end test drives Debian's chromium with Playwright's client library
# (playwright-core, pinned; no browser download), installed into the git-ignored build-web/
# beside the sources. Node.js and npm come from apt when the machine has none.
if ! command -v npm >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends nodejs npm
fi
playwright_version=1.65.2
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ "$(node -p "require('$root/build-web/node_modules/playwright-core/package.json').version" 2>/dev/null)" != "$playwright_version" ]; then
    echo "install-deps: installing playwright-core@$playwright_version into build-web/"
    # The one dependency not from apt: a machine that reaches apt but not npm's registry still
    # builds and runs every other test; the browser test then reports itself skipped, naming why.
    if ! npm install --prefix "$root/build-web" --no-audit --no-fund \
        "playwright-core@$playwright_version"; then
        echo "install-deps: WARNING: npm could not install playwright-core; the editor's" \
            "browser test (editor_e2e) will be skipped" >&2
    fi
fi
