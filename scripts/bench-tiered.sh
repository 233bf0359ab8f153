#!/usr/bin/env bash
# Strong solves on the tiered retrograde solver: quixo:4 and teeko, 1 and 2 threads, beside
# GamesmanOne's figures for the same games.
#
#   scripts/bench-tiered.sh                      # quixo:4 and teeko, 1 and 2 threads
#   BENCH_GAMES="quixo:4" BENCH_THREADS="1" scripts/bench-tiered.sh
#
# GamesmanOne's figures are QUOTED, not rerun here: they were measured on a similar 2-core
# machine (release build, -O3, OpenMP): quixo 4x4 31.9 s (1 thread), 19.5 s (2 threads), under
# 260 MiB; teeko about 1025 s (1 thread), 541 s (2 threads), 9.5 GiB.
#
# For each run it prints the solver's own wall time and the process's CPU time during the solve,
# positions solved per second (canonical positions; and index ranks per second), the peak
# resident memory of the whole process (/usr/bin/time), and the ratios GamesmanOne/sprague
# (> 1 means sprague is faster or smaller). `sprague solve` also counts the reachable positions
# after solving; that count is not part of the solve time but is part of the process's wall
# time and memory, which are printed too. The load average is printed beside every run, since
# the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p sprague-cli >&2
SPRAGUE=target/release/sprague
GAMES=${BENCH_GAMES:-"quixo:4 teeko"}
THREADS=${BENCH_THREADS:-"1 2"}
unset SPRAGUE_DB_DIR

# GamesmanOne's quoted figures: wall seconds with 1 and 2 threads, peak MiB.
peer() {
    case "$1:$2" in
        quixo:4:1) echo "31.9 260" ;;
        quixo:4:2) echo "19.5 260" ;;
        teeko:1) echo "1025 9728" ;;
        teeko:2) echo "541 9728" ;;
        *) echo "" ;;
    esac
}

printf '%-8s %3s %9s %9s %12s %12s %9s %10s %8s %8s  %s\n' \
    game thr solve_s cpu_s pos/s index/s rss_MiB process_s x_time x_mem load
for game in $GAMES; do
    for t in $THREADS; do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        timefile=$(mktemp)
        json=$(/usr/bin/time -f "%e %M" -o "$timefile" "$SPRAGUE" solve "$game" --json --threads "$t")
        read -r process_wall rss_kib <"$timefile"
        rm -f "$timefile"
        peer_figures=$(peer "$game" "$t")
        python3 - "$game" "$t" "$process_wall" "$rss_kib" "$peer_figures" "$load" "$json" <<'EOF'
import json, sys
game, t, wall, rss, peer, load, text = sys.argv[1:]
r = json.loads(text)
s = r["details"]["solve"]
rss_mib = int(rss) / 1024
x_time = x_mem = "-"
if peer:
    pw, pm = map(float, peer.split())
    x_time = f"{pw / s['seconds']:.1f}x"
    x_mem = f"{pm / rss_mib:.1f}x"
cpu = s.get("cpu_seconds")
print(f"{game:<8} {t:>3} {s['seconds']:9.2f} {cpu if cpu is not None else float('nan'):9.2f} "
      f"{s['positions_per_second']:12.0f} {s['index_per_second']:12.0f} {rss_mib:9.0f} "
      f"{float(wall):10.2f} {x_time:>8} {x_mem:>8}  {load}")
print(f"         start: {r['outcome']} remoteness {r['remoteness']}, "
      f"reachable {r['positions']} ({r['details']['positions_up_to_symmetry']} up to symmetry)")
EOF
    done
done
echo "x_time, x_mem: GamesmanOne's quoted figure / sprague's (solve wall time; process peak RSS)."
