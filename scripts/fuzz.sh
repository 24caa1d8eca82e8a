#!/usr/bin/env bash
# Runs every libFuzzer target in BUILD_DIR/bin for SECONDS each, starting from its seed corpus in
# fuzz/corpus/<target minus _fuzz>. New inputs go to a scratch copy, never into the repository.
# A finding (crash, leak, sanitizer report, timeout) fails the run and leaves the input in
# build-dir/fuzz-findings/.
# A libFuzzer process fuzzes on one core, so the targets run SPINDRIFT_FUZZ_JOBS at a time (default:
# the number of cores); each still gets SECONDS of its own, and its report is printed when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-fuzz}
seconds=${2:-60}
jobs=${SPINDRIFT_FUZZ_JOBS:-$(nproc)}
findings="$build_dir/fuzz-findings"
mkdir -p "$findings"

# fuzz_one <target>: fuzzes one target; prints its report in one piece; fails on a finding.
fuzz_one() {
    local target=$1 name seed scratch report result=0
    name=$(basename "$target")
    seed="fuzz/corpus/${name%_fuzz}"
    scratch=$(mktemp -d)
    [ -d "$seed" ] && cp -r "$seed/." "$scratch/"
    report="fuzz: $name for ${seconds}s (seed corpus: $(ls "$scratch" | wc -l) files)"$'\n'
    if ! "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
            -print_final_stats=1 -artifact_prefix="$findings/$name-" "$scratch" \
            >"$findings/$name.log" 2>&1; then
        report+="fuzz: $name FOUND A PROBLEM; log: $findings/$name.log"$'\n'
        report+="$(tail -n 40 "$findings/$name.log")"
        result=1
    else
        report+="$(grep -E "stat::number_of_executed_units|cov:" "$findings/$name.log" | tail -n 2 || true)"
    fi
    rm -rf "$scratch"
    printf '%s\n' "$report"
    return $result
}

status=0
running=0
for target in "$build_dir"/bin/*_fuzz; do
    if ((running >= jobs)); then
        wait -n || status=1
        running=$((running - 1))
    fi
    fuzz_one "$target" &
    running=$((running + 1))
done
while ((running > 0)); do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
