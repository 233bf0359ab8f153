# Sourced by the partizan peer scripts: sets PEER_PYTHON to a Python with cgt-py, building its
# venv on first use, or prints "skipped: ..." and exits 77.
PEER_VENV=${SPRAGUE_PEER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sprague-peers}/cgt-py
PEER_PYTHON=$PEER_VENV/bin/python
if ! "$PEER_PYTHON" -c 'import cgt_py' >/dev/null 2>&1; then
    echo "installing cgt-py into $PEER_VENV" >&2
    if ! python3 -m venv "$PEER_VENV" >&2 ||
        ! timeout 600 "$PEER_VENV/bin/pip" install --quiet 'cgt-py==0.11.0' anywidget >&2 ||
        ! "$PEER_PYTHON" -c 'import cgt_py' >/dev/null 2>&1; then
        echo "skipped: cannot install cgt-py into $PEER_VENV (is the package registry reachable?)"
        exit 77
    fi
fi
