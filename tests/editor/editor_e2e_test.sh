#!/usr/bin/env bash
# The editor end to end (tests/editor/CMakeLists.txt): starts `spindrift edit` on a fresh folder
# and drives the page in headless Chromium with Playwright (editor_e2e_test.mjs).
# Usage: editor_e2e_test.sh SPINDRIFT_CLI SOURCE_DIR
# Screenshots go to $SPINDRIFT_EDITOR_IMAGES when set (docs/editor.md: docs/images), else to the
# test's temporary folder. Fails without chromium or node (apt packages scripts/install-deps.sh
# installs); exit 77 (skipped, with the reason) only without playwright-core, the one dependency
# npm brings, which a machine without npm's registry cannot have.
set -euo pipefail
cli=$1
src=$2
playwright="$src/build-web/node_modules/playwright-core"
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium_bin" ] || ! command -v node >/dev/null 2>&1; then
    echo "chromium or node is missing: run scripts/install-deps.sh"
    exit 1
fi
if [ ! -d "$playwright" ]; then
    echo "skipped: playwright-core is not installed in build-web/ (npm's registry was not" \
        "reachable when scripts/install-deps.sh ran)"
    exit 77
fi

work=$(mktemp -d)
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/effects" "$work/outside" "$work/images"
echo '{"secret": true}' > "$work/outside/secret.json"
ln -s "$work/outside/secret.json" "$work/effects/link_out.json"
images=${SPINDRIFT_EDITOR_IMAGES:-$work/images}
mkdir -p "$images"

"$cli" edit "$work/effects" > "$work/server.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 300); do
    url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$work/server.log" | head -1 || true)
    [ -n "$url" ] && break
    if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.log"; exit 1; fi
    sleep 0.1
done
[ -n "$url" ] || { echo "the server printed no address"; cat "$work/server.log"; exit 1; }

node "$src/tests/editor/editor_e2e_test.mjs" "$url" "$work/effects" "$cli" "$playwright" \
    "$chromium_bin" "$images"
status=$?
# The server must still be running after everything the test threw at it.
kill -0 "$server_pid" || { echo "the server died"; cat "$work/server.log"; exit 1; }
exit $status
