#!/usr/bin/env bash
# Octal games: sprague's sparse engine beside beling's ogsolve (method rc2), in one run.
#
#   scripts/bench-octal.sh            # the full set (long: 0.007 to 2^20 takes minutes)
#   BENCH_QUICK=1 scripts/bench-octal.sh   # the same games at smaller sizes
#   BENCH_THREADS="1 2" (default)     # sprague's thread counts; ogsolve has one thread
#   BENCH_GAMES="0.6 1048576;0.16 700000"  # only these games (code and heap, ';'-separated)
#
# For each game it prints wall-clock and CPU seconds (user + sys) of both programs and the
# ratios ogsolve/sprague (> 1 means sprague is faster). The machine may be shared, so the CPU
# ratio is the steadier figure. Both programs print a Fletcher-32 checksum of all values; the
# script fails when they differ, so a fast but wrong run never passes.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v ogsolve >/dev/null 2>&1; then
    echo "installing ogsolve (crates.io), built for this CPU as its README recommends" >&2
    RUSTFLAGS="-C target-cpu=native" cargo install ogsolve >&2
fi
cargo build --release -p sprague --example octal_table >&2
SPRAGUE=target/release/examples/octal_table
THREADS=${BENCH_THREADS:-"1 2"}

if [[ -n "${BENCH_GAMES:-}" ]]; then
    IFS=';' read -r -a GAMES <<<"$BENCH_GAMES"
elif [[ -n "${BENCH_QUICK:-}" ]]; then
    GAMES=("0.6 131072" "0.007 32768" "0.106 131072" "0.16 100000" "grundy 131072")
else
    GAMES=("0.6 1048576" "0.007 1048576" "0.106 1048576" "0.16 700000" "grundy 1048576")
fi

# Runs a command, leaving "wall cpu" in $TIMES and its stdout in $OUT.
measure() {
    local timefile
    timefile=$(mktemp)
    OUT=$(/usr/bin/time -f "%e %U %S" -o "$timefile" "$@")
    TIMES=$(awk '{ printf "%.2f %.2f", $1, $2 + $3 }' "$timefile")
    rm -f "$timefile"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }

printf "%-8s %8s %4s | %9s %9s | %9s %9s | %7s %7s | %s\n" \
    game n thr "og wall" "og cpu" "sp wall" "sp cpu" "wall x" "cpu x" "G(n)"
status=0
for entry in "${GAMES[@]}"; do
    read -r game n <<<"$entry"
    og_wall="" og_cpu="" og_sum=""
    if [[ "$game" == grundy ]]; then
        og_note="ogsolve has no Grundy's game"
    else
        measure ogsolve -m rc2 -n "$n" "$game"
        read -r og_wall og_cpu <<<"$TIMES"
        og_sum=$(grep -o 'checksum: [0-9A-F]*' <<<"$OUT" | awk '{ print $2 }')
        og_note=""
    fi
    for threads in $THREADS; do
        measure env OCTAL_QUIET=1 "$SPRAGUE" "$game" "$n" "$threads"
        read -r sp_wall sp_cpu <<<"$TIMES"
        sp_sum=$(grep -o 'fletcher=[0-9A-F]*' <<<"$OUT" | cut -d= -f2)
        last=$(grep -o 'last=[0-9]*' <<<"$OUT" | cut -d= -f2)
        if [[ -n "$og_sum" && "$og_sum" != "$sp_sum" ]]; then
            echo "MISMATCH on $game to $n: ogsolve checksum $og_sum, sprague $sp_sum" >&2
            status=1
        fi
        if [[ -n "$og_wall" ]]; then
            printf "%-8s %8s %4s | %9s %9s | %9s %9s | %7s %7s | %s\n" "$game" "$n" "$threads" \
                "$og_wall" "$og_cpu" "$sp_wall" "$sp_cpu" "$(ratio "$og_wall" "$sp_wall")" \
                "$(ratio "$og_cpu" "$sp_cpu")" "$last"
        else
            printf "%-8s %8s %4s | %9s %9s | %9s %9s | %7s %7s | %s (%s)\n" "$game" "$n" \
                "$threads" - - "$sp_wall" "$sp_cpu" - - "$last" "$og_note"
        fi
    done
done
exit $status
