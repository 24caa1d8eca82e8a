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
