#!/usr/bin/env bash
# Partizan values beside cgt-py's (PyPI `cgt-py`, installed with `anywidget`, which it needs
# but does not declare) in a venv outside the repository:
# ${SPRAGUE_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sprague-peers}/cgt-py.
#
#   scripts/partizan-crosscheck.sh                 # 240+ random positions, seed 16
#   scripts/partizan-crosscheck.sh --count 800 --seed 3
#
# Compares canonical forms, outcomes and temperatures of Domineering, Toads and Frogs,
# Hackenbush, Clobber, Konane and Amazons positions (scripts/partizan_peer.py says how).
# Prints "ok: ..." and exits 0 when all agree, "FAIL: ..." and exits 1 when any differ, and
# "skipped: ..." and exits 77 when cgt-py cannot be installed (say, no registry).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/partizan-peer-env.sh
cargo build --release -p sprague-cli >&2
"$PEER_PYTHON" scripts/partizan_peer.py crosscheck target/release/sprague "$@"
