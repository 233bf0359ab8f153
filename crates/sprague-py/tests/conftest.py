"""Shared fixtures: the command line the Python API is checked against."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def _binary() -> Path:
    named = os.environ.get("SPRAGUE_BIN")
    if named:
        return Path(named)
    for profile in ("release", "debug"):
        path = ROOT / "target" / profile / "sprague"
        if path.exists():
            return path
    pytest.fail("no sprague binary: run 'cargo build -p sprague-cli' or set SPRAGUE_BIN")


@pytest.fixture(scope="session")
def cli():
    """Runs `sprague ARGS... --json` and returns the parsed JSON."""
    binary = _binary()

    def run(*args: str):
        env = dict(os.environ, SPRAGUE_DB_DIR="")
        out = subprocess.run(
            [str(binary), *args], capture_output=True, text=True, env=env, check=True
        )
        return json.loads(out.stdout)

    return run


@pytest.fixture(autouse=True)
def memory_store(monkeypatch):
    """Strong solutions stay in memory during tests (the CLI's `SPRAGUE_DB_DIR=` rule)."""
    monkeypatch.setenv("SPRAGUE_DB_DIR", "")
