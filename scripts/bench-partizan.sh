#!/usr/bin/env bash
# Domineering's empty boards valued by sprague and by cgt-py in the same run, each in its own
# process: wall and CPU (user + sys) seconds, peak memory, the ratios cgt-py / sprague (> 1
# means sprague is faster) and the load average. Both values are compared; a difference fails.
#
#   scripts/bench-partizan.sh                # 4x4 4x5 5x5 5x6
#   scripts/bench-partizan.sh 5x5 5x6        # these boards (rows x columns)
#
# cgt-py lives in a venv outside the repository (scripts/partizan-peer-env.sh); without it
# the script prints "skipped: ..." and exits 77.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/partizan-peer-env.sh
cargo build --release -p sprague-cli >&2
uptime
"$PEER_PYTHON" scripts/partizan_peer.py bench target/release/sprague "$@"
uptime
