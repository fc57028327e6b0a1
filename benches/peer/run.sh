#!/bin/sh
# The peer benchmark of the web-output issue: `curvebake bake --bundle --formats json,css` of
# 10,000 springs against popmotion 11 sampling the same springs, as whole processes, run in
# alternating pairs (this machine is shared and noisy), compared by median wall time.
#
#   benches/peer/run.sh [PAIRS] [CURVEBAKE]
#
# PEER_DIR is the peer-bench folder (default ../shared/peer-bench, which holds
# bench_popmotion.js); its popmotion is installed with npm on first use. CURVEBAKE defaults to
# target/release/curvebake (build it first). Each curvebake run writes into a fresh folder
# (made outside the timing), as a first bake or a `--force` bake in a clean CI checkout does.
set -eu
pairs=${1:-9}
curvebake=$(realpath "${2:-target/release/curvebake}")
peer=$(realpath "${PEER_DIR:-../shared/peer-bench}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -d "$peer/node_modules/popmotion" ] || (cd "$peer" && npm install --no-audit --no-fund >/dev/null)

# Spring i: mass 1, stiffness 100 + (37 i mod 301), damping 10 + (13 i mod 31), 0 -> 300 px,
# popmotion's rest thresholds (0.4 px, 2 px/s); 1,000 a file, as the peer-bench README says.
mkdir "$work/springs"
awk 'BEGIN {
    for (f = 0; f < 10; f++) {
        file = sprintf("'"$work"'/springs/s%d.ron", f)
        print "[" > file
        for (i = f * 1000; i < (f + 1) * 1000; i++)
            printf "(name: \"s%d\", property: \"translateY\", rest_delta: 0.4, rest_speed: 2, motion: Spring(from: 0, to: 300, mass: 1, stiffness: %d, damping: %d)),\n", i, 100 + (37 * i) % 301, 10 + (13 * i) % 31 > file
        print "]" > file
        close(file)
    }
}'

now() { date +%s%N; }
# Each run starts on a settled machine: the page cache written back and a second of quiet, so
# that neither pays for the write-back of the other's 10 or 37 MB (on 2 cores, the kernel's
# write-back threads take CPU from whichever process runs next).
settle() { sync; sleep 1; }
for i in $(seq "$pairs"); do
    settle
    start=$(now)
    node "$peer/bench_popmotion.js" 10000 "$work/popmotion.txt" >/dev/null
    echo "popmotion $(( ($(now) - start) / 1000000 ))"
    rm -rf "$work/out"
    settle
    start=$(now)
    "$curvebake" bake "$work/springs" --out "$work/out" --bundle --formats json,css --force --quiet
    echo "curvebake $(( ($(now) - start) / 1000000 ))"
done | sort -k1,1 -k2n | awk '
    { runs[$1] = runs[$1] " " $2; ms[$1, ++n[$1]] = $2 }
    END {
        for (k in n) { median[k] = ms[k, int((n[k] + 1) / 2)]; printf "%-10s ms:%s  (median %d)\n", k, runs[k], median[k] }
        printf "ratio of medians, curvebake / popmotion: %.2f\n", median["curvebake"] / median["popmotion"]
    }'
