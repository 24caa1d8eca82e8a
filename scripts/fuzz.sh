#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR/bin for SECONDS each, starting from its seed corpus in
# fuzz/corpus/<target minus _fuzz>. New inputs go to a scratch copy, never into the repository.
# A finding (crash, leak, sanitizer report, timeout) fails the run and leaves the input in
# build-dir/fuzz-findings/.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-fuzz}
seconds=${2:-60}
findings="$build_dir/fuzz-findings"
mkdir -p "$findings"

status=0
for target in "$build_dir"/bin/*_fuzz; do
    name=$(basename "$target")
    seed="fuzz/corpus/${name%_fuzz}"
    scratch=$(mktemp -d)
    [ -d "$seed" ] && cp -r "$seed/." "$scratch/"
    echo "fuzz: $name for ${seconds}s (seed corpus: $(ls "$scratch" | wc -l) files)"
    if ! "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$findings/$name-" "$scratch" \
            >"$findings/$name.log" 2>&1; then
        echo "fuzz: $name FOUND A PROBLEM; log: $findings/$name.log"
        tail -n 40 "$findings/$name.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|cov:" "$findings/$name.log" | tail -n 2 || true
    fi
    rm -rf "$scratch"
done
exit $status
