"""Python against the command line on the same work, and the nimber batch against Python loops.

    python crates/sprague-py/benches/bench.py [--cli target/release/sprague] [--repeat 3]

Prints each figure beside its peer's, as a ratio from the same run, with the CPU, its SIMD
features and the load average. Nothing here asserts a time.
"""

import argparse
import json
import os
import resource
import subprocess
import time
from pathlib import Path

import numpy as np

import sprague

ROOT = Path(__file__).resolve().parents[3]


def cpu() -> str:
    model, flags = "unknown CPU", set()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and model == "unknown CPU":
                model = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    except OSError:
        pass
    wanted = ["avx2", "avx512f", "vpclmulqdq", "pclmulqdq", "gfni", "bmi2"]
    return f"{model}; features: {' '.join(f for f in wanted if f in flags) or 'none of ' + ' '.join(wanted)}"


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def best(runs):
    return min(runs, key=lambda r: r[0])


def bench_table(cli: str, repeat: int) -> None:
    to = 2**20
    py_runs, cli_runs = [], []
    for _ in range(repeat):
        c0, t0 = self_cpu(), time.perf_counter()
        values = sprague.table("0.6", to=to)
        py_runs.append((time.perf_counter() - t0, self_cpu() - c0))
        c0, t0 = children_cpu(), time.perf_counter()
        out = subprocess.run(
            [cli, "table", "0.6", "--to", str(to), "--format", "json"],
            stdout=subprocess.PIPE,
            check=True,
        )
        cli_runs.append((time.perf_counter() - t0, children_cpu() - c0))
    assert len(out.stdout) > to and values.shape == (to + 1,)
    (pw, pc), (cw, cc) = best(py_runs), best(cli_runs)
    print(f"table 0.6 to 2^20 (best of {repeat}; the CLI also writes its JSON):")
    print(f"  sprague.table   {pw:7.3f} s wall  {pc:7.3f} s CPU")
    print(f"  sprague CLI     {cw:7.3f} s wall  {cc:7.3f} s CPU")
    print(f"  Python / CLI    {pw / cw:7.3f} wall  {pc / cc:7.3f} CPU  (overhead {100 * (pw / cw - 1):+.1f}% wall)")


def python_nim_mul(a: int, b: int, bits: int = 64) -> int:
    """Nim product in plain Python by the Fermat-power recursion (a reference, not fast)."""
    if a < 2 or b < 2:
        return a * b
    half = bits // 2
    mask = (1 << half) - 1
    a1, a0, b1, b0 = a >> half, a & mask, b >> half, b & mask
    hh = python_nim_mul(a1, b1, half)
    ll = python_nim_mul(a0, b0, half)
    mid = python_nim_mul(a1 ^ a0, b1 ^ b0, half) ^ ll
    return (mid << half) ^ ll ^ python_nim_mul(hh, 1 << (half - 1), half)


def cpu_seconds(f, repeat: int) -> float:
    """The least CPU time (user + sys of this process) of `repeat` calls of f."""
    best = float("inf")
    for _ in range(repeat):
        t0 = os.times()
        f()
        t1 = os.times()
        best = min(best, (t1.user - t0.user) + (t1.system - t0.system))
    return best


def bench_nimber(cli: str, repeat: int) -> None:
    rng = np.random.default_rng(1)
    n = 10**7
    a = rng.integers(0, 2**64, size=n, dtype=np.uint64)
    b = rng.integers(0, 2**64, size=n, dtype=np.uint64)
    runs = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = sprague.nimber.mul(a, b)
        runs.append(time.perf_counter() - t0)
    batch = n / min(runs)
    big_cpu = cpu_seconds(lambda: sprague.nimber.mul(a, b), repeat) / n * 1e9
    # The CLI's batch figure is one slice call over 4096 pairs: the same size from Python.
    small_a, small_b = a[:4096].copy(), b[:4096].copy()
    calls = 2000
    small_cpu = cpu_seconds(lambda: [sprague.nimber.mul(small_a, small_b) for _ in range(calls)], repeat)
    small_cpu = small_cpu / (calls * 4096) * 1e9
    k = 20_000
    xs, ys = [int(x) for x in a[:k]], [int(y) for y in b[:k]]
    t0 = time.perf_counter()
    scalar = [sprague.nimber.mul(x, y) for x, y in zip(xs, ys)]
    binding_loop = k / (time.perf_counter() - t0)
    k2 = 2_000
    t0 = time.perf_counter()
    pure = [python_nim_mul(x, y) for x, y in zip(xs[:k2], ys[:k2])]
    pure_loop = k2 / (time.perf_counter() - t0)
    assert pure == scalar[:k2] == [int(v) for v in out[:k2]]
    cli_batch = None
    if Path(cli).exists():
        report = json.loads(subprocess.run([cli, "bench", "nimber", "--json"], check=True,
                                           capture_output=True, text=True).stdout)
        row = next((r for r in report["rows"] if r["path"] == report["path"]), None)
        if row is not None and report["path"] == sprague.nimber.SIMD:
            cli_batch = row["batch"]["cpu"]
    print(f"nim products, uint64 arrays (SIMD path {sprague.nimber.SIMD}; CPU ns are user + sys):")
    print(f"  sprague.nimber.mul, 10^7 elements {batch:14,.0f}/s wall ({1e9 / batch:.2f} ns each), {big_cpu:.2f} CPU ns each")
    print(f"  sprague.nimber.mul, 4096 elements {small_cpu:.2f} CPU ns each", end="")
    if cli_batch is not None:
        print(f"; the CLI's batch of 4096 in the same run: {cli_batch:.2f} ns ({small_cpu / cli_batch:.2f}x)")
    else:
        print(" (no CLI figure: pass --cli with a release build)")
    print(f"  Python loop over nimber.mul(int)  {binding_loop:14,.0f}/s  batch is {batch / binding_loop:,.0f}x faster")
    print(f"  pure-Python nim product loop      {pure_loop:14,.0f}/s  batch is {batch / pure_loop:,.0f}x faster")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_cli = os.environ.get("SPRAGUE_BIN", str(ROOT / "target" / "release" / "sprague"))
    parser.add_argument("--cli", default=default_cli, help="the sprague binary (release build)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"CPU: {cpu()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    bench_table(args.cli, args.repeat)
    bench_nimber(args.cli, args.repeat)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
