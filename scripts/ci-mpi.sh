#!/usr/bin/env bash
# CI for `sprague solve GAME --distributed` (feature `mpi`): installs Open MPI with apt when
# mpirun is missing, then runs the MPI tests of the CLI in release mode: quixo:4 on 3 ranks,
# mnk:3,3,4 and mnk:4,4,4 on 2 and 4 ranks, each against a one-process solve (answer and
# database byte for byte), a rank SIGKILLed mid-solve (connect:4,4,4 and quixo:4) whose rerun
# resumes from the last finished tier with the same database, and a game that is not tiered.
# Ranks run on loopback, oversubscribed (this machine has 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null || ! dpkg -s libopenmpi-dev >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenmpi-dev openmpi-bin libclang-dev >/dev/null
fi
cargo test --release -p sprague-cli --features mpi --test tests distributed -- --include-ignored
