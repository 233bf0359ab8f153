#!/usr/bin/env bash
# The distributed tier solver on this machine: positions per second of
# `sprague solve GAME --distributed` on 1, 2 and 4 ranks (mpirun on loopback, one thread a
# rank), beside the one-process solver on one thread, with CPU seconds (user + sys, summed
# over the ranks), peak memory of one rank, the bytes the ranks exchanged, and the load; then
# the communication volume of each tier of the largest run.
#
#   scripts/bench-distributed.sh                 # quixo:4 on 1, 2 and 4 ranks
#   BENCH_GAME=mnk:4,4,4 BENCH_RANKS="1 2" scripts/bench-distributed.sh
#
# Needs a release build with the feature (cargo build --release -p sprague-cli --features mpi)
# and Open MPI's mpirun. On a 2-core machine 4 ranks oversubscribe the cores: their figure
# says what the exchanges cost, not what 4 cores would give. Every run's answer and database
# must equal the one-process run's; the script fails otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
SPRAGUE=${SPRAGUE_BIN:-target/release/sprague}
GAME=${BENCH_GAME:-quixo:4}
RANKS=${BENCH_RANKS:-"1 2 4"}
ROOT=()
[[ $(id -u) == 0 ]] && ROOT=(--allow-run-as-root)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
db=$(echo "$GAME" | tr ':,' '__').sdb

run() { # name, command...: prints "wall user+sys maxrss_kib" and keeps the JSON
    local name=$1
    shift
    mkdir -p "$work/$name"
    SPRAGUE_DB_DIR="$work/$name" /usr/bin/time -f "%e %U %S %M" -o "$work/$name.time" \
        "$@" >"$work/$name.json"
}

printf '%-10s %6s %8s %8s %12s %9s %9s %14s %8s  %s\n' \
    run ranks solve_s cpu_s pos/s held_MiB rss_MiB bytes_sent B/pos load
report() { # name, ranks
    python3 - "$1" "$2" "$work" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, sys
name, ranks, work, load = sys.argv[1:]
r = json.load(open(f"{work}/{name}.json"))
wall, user, sys_, rss = open(f"{work}/{name}.time").read().split()
s = r["details"]["solve"]
d = r["details"].get("distributed", {})
sent = d.get("bytes_exchanged", 0)
per = sent / r["details"]["solved_positions"]
print(f"{name:<10} {ranks:>6} {s['seconds']:8.2f} {s['cpu_seconds']:8.2f} "
      f"{s['positions_per_second']:12.0f} {s['peak_bytes'] / 2**20:9.0f} {int(rss) / 1024:9.0f} "
      f"{sent:14d} {per:8.1f}  {load}")
PY
}

run one "$SPRAGUE" solve "$GAME" --json --threads 1
report one 1
for n in $RANKS; do
    run "np$n" mpirun "${ROOT[@]}" --oversubscribe -np "$n" -x SPRAGUE_DB_DIR \
        "$SPRAGUE" solve "$GAME" --json --threads 1 --distributed
    report "np$n" "$n"
    cmp "$work/one/$db" "$work/np$n/$db" || { echo "np$n: the database differs" >&2; exit 1; }
    python3 - "$work/one.json" "$work/np$n.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda r: (r["outcome"], r["remoteness"], r["positions"], r["details"]["solved_positions"])
assert key(a) == key(b), (key(a), key(b))
PY
done
echo "cpu_s: user + sys of the solve, summed over the ranks. held_MiB: the solver's tables on the"
echo "rank that held the most. rss_MiB: /usr/bin/time's peak for the command it ran. bytes_sent: sent from one rank to another while"
echo "solving (requests 8 B, answers 2 B, messages to parents 8 B), not the gathers to rank 0."
last=np${RANKS##* }
echo
echo "communication per tier, $last (tier, positions, bytes sent, bytes per position, ms):"
python3 - "$work/$last.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = r["details"]["distributed"]["tiers"]
for tier, positions, sent, ms in rows:
    per = sent / positions if positions else 0
    print(f"  {tier:4d} {positions:10d} {sent:12d} {per:7.1f} {ms:7d}")
print(f"  total {sum(t[1] for t in rows)} positions, {sum(t[2] for t in rows)} bytes")
PY
