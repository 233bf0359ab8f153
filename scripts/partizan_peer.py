#!/usr/bin/env python3
"""sprague's partizan values beside cgt-py's: a cross-check and a benchmark.

    partizan_peer.py crosscheck SPRAGUE [--count N] [--seed S]
    partizan_peer.py bench SPRAGUE [BOARD ...]

SPRAGUE is the `sprague` binary (the release build of crates/sprague-cli): positions go to
`sprague value --batch`, one a line, exactly as a user would write them. Run under the
Python that has cgt-py installed (scripts/partizan-crosscheck.sh and scripts/bench-partizan.sh
set that up).

crosscheck: random positions of Domineering, Konane and Amazons (cgt-py's own rulesets) and
of Toads and Frogs, Hackenbush and Clobber (which cgt-py lacks: their rules are written below,
plainly, and each position's canonical form is built by cgt-py from its options' forms). For
every position it compares sprague's canonical form (cgt-py's form is read back by sprague's
notation parser, so the two notations need not agree in spelling), outcome and temperature.
Any difference fails the run (exit 1).

bench: Domineering's empty boards, each valued by both programs in separate processes, with
wall and CPU (user + sys) seconds, peak memory and the ratios cgt-py / sprague. Times under
/usr/bin/time's resolution (0.01 s) count as 0.01 s, so such ratios are lower bounds.
"""

import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
import time

import cgt_py

# ---------------------------------------------------------------------------------------------
# Rulesets cgt-py does not have. Left is x / T / B, Right is o / F / R, G is green.


def toads_frogs_options(strip):
    """Left's and Right's options of a Toads and Frogs strip: toads (T) move right one cell
    or jump one frog; frogs (F) move left one cell or jump one toad."""
    left, right = [], []
    n = len(strip)
    for i, c in enumerate(strip):
        if c == "T":
            if i + 1 < n and strip[i + 1] == ".":
                left.append(strip[:i] + ".T" + strip[i + 2 :])
            elif i + 2 < n and strip[i + 1] == "F" and strip[i + 2] == ".":
                left.append(strip[:i] + ".FT" + strip[i + 3 :])
        elif c == "F":
            if i >= 1 and strip[i - 1] == ".":
                right.append(strip[: i - 1] + "F." + strip[i + 1 :])
            elif i >= 2 and strip[i - 1] == "T" and strip[i - 2] == ".":
                right.append(strip[: i - 2] + "FT." + strip[i + 1 :])
    return left, right


def hackenbush_options(stalks):
    """Options of Hackenbush stalks (a tuple of strings, bottom edge first): cutting an edge
    removes it and everything above it."""
    left, right = [], []
    for s, stalk in enumerate(stalks):
        for i, colour in enumerate(stalk):
            option = stalks[:s] + (stalk[:i],) + stalks[s + 1 :]
            if colour in "BG":
                left.append(option)
            if colour in "RG":
                right.append(option)
    return left, right


def clobber_options(board):
    """Options of a Clobber board (rows joined by '|'): a stone moves onto an orthogonally
    adjacent stone of the other colour, which is removed."""
    rows = [list(r) for r in board.split("|")]
    left, right = [], []
    for r, row in enumerate(rows):
        for c, stone in enumerate(row):
            if stone not in "xo":
                continue
            other = "o" if stone == "x" else "x"
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < len(rows) and 0 <= cc < len(rows[rr]) and rows[rr][cc] == other:
                    new = [list(x) for x in rows]
                    new[r][c] = "."
                    new[rr][cc] = stone
                    option = "|".join("".join(x) for x in new)
                    (left if stone == "x" else right).append(option)
    return left, right


def form_text(form):
    """cgt-py's notation of a canonical form."""
    text = repr(form)
    match = re.fullmatch(r"CanonicalForm\('(.*)'\)", text)
    if not match:
        raise ValueError(f"unexpected cgt-py form {text!r}")
    return match.group(1)


class FromOptions:
    """Canonical forms by cgt-py from a ruleset's options, memoised."""

    def __init__(self, options):
        self.options = options
        self.memo = {}

    def __call__(self, position):
        if position not in self.memo:
            left, right = self.options(position)
            lt = ", ".join(form_text(self(p)) for p in left)
            rt = ", ".join(form_text(self(p)) for p in right)
            self.memo[position] = cgt_py.CanonicalForm("{" + lt + "|" + rt + "}")
        return self.memo[position]


# ---------------------------------------------------------------------------------------------
# Random positions.


def random_grid(rng, rows, cols, alphabet, weights):
    return "|".join(
        "".join(rng.choices(alphabet, weights)[0] for _ in range(cols)) for _ in range(rows)
    )


def positions(rng, count):
    """(sprague line, peer function) pairs, about `count` of the four main rulesets."""
    toads = FromOptions(toads_frogs_options)
    hack = FromOptions(hackenbush_options)
    clob = FromOptions(clobber_options)
    out = []
    quarter = max(count // 4, 1)
    # Domineering: every empty rectangle up to 4x4, then random boards with blocked cells.
    for r in range(1, 5):
        for c in range(1, 5):
            board = "|".join("." * c for _ in range(r))
            out.append((f"domineering {board}", lambda b=board: cgt_py.Domineering(b).canonical_form))
    while sum(1 for line, _ in out if line.startswith("domineering")) < quarter:
        r, c = rng.randint(1, 4), rng.randint(1, 5)
        board = random_grid(rng, r, c, ".#", [4, 1])
        out.append((f"domineering {board}", lambda b=board: cgt_py.Domineering(b).canonical_form))
    for _ in range(quarter):
        n = rng.randint(1, 9)
        strip = "".join(rng.choices("TF.", [2, 2, 3])[0] for _ in range(n))
        out.append((f"toads-frogs {strip}", lambda s=strip: toads(s)))
    for _ in range(quarter):
        stalks = tuple(
            "".join(rng.choices("BRG", [3, 3, 1])[0] for _ in range(rng.randint(1, 4)))
            for _ in range(rng.randint(1, 3))
        )
        line = "hackenbush " + " ".join(stalks)
        out.append((line, lambda s=stalks: hack(s)))
    for _ in range(quarter):
        r, c = rng.randint(1, 3), rng.randint(1, 4)
        board = random_grid(rng, r, c, "xo.", [3, 3, 1])
        out.append((f"clobber {board}", lambda b=board: clob(b)))
    # Extras cgt-py has rules for.
    for _ in range(count // 10):
        n = rng.randint(2, 6)
        board = random_grid(rng, 1, n, "xo.", [2, 2, 2]) if rng.random() < 0.5 else random_grid(
            rng, 2, rng.randint(2, 3), "xo.", [2, 2, 2]
        )
        out.append((f"konane {board}", lambda b=board: cgt_py.Konane(b).canonical_form))
    for _ in range(count // 20):
        board = random_grid(rng, rng.randint(1, 2), rng.randint(2, 3), "xo.#", [1, 1, 4, 1])
        out.append((f"amazons {board}", lambda b=board: cgt_py.Amazons(b).canonical_form))
    return out


def peer_outcome(form):
    zero = cgt_py.CanonicalForm(0)
    if form == zero:
        return "P"
    if form > zero:
        return "L"
    if form < zero:
        return "R"
    return "N"


def run_sprague(example, lines):
    result = subprocess.run(
        [example, "value", "--batch"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"FAIL: sprague value --batch exited {result.returncode}: {result.stderr.strip()}\n{result.stdout}")
    values = [json.loads(line) for line in result.stdout.splitlines()]
    if len(values) != len(lines):
        sys.exit(f"FAIL: sprague printed {len(values)} values for {len(lines)} lines")
    return values


def crosscheck(example, count, seed):
    rng = random.Random(seed)
    cases = positions(rng, count)
    lines = [line for line, _ in cases]
    ours = run_sprague(example, lines)
    peer_forms = [peer() for _, peer in cases]
    # sprague reads cgt-py's notation back, so equal values print alike.
    theirs = run_sprague(example, [f"cg {form_text(f)}" for f in peer_forms])
    failures = 0
    per_game = {}
    for line, mine, form, back in zip(lines, ours, peer_forms, theirs):
        game = line.split()[0]
        per_game[game] = per_game.get(game, 0) + 1
        peer_temperature = re.sub(r"DyadicRationalNumber\('(.*)'\)", r"\1", repr(form.temperature))
        checks = [
            ("canonical form", mine["canonical_form"], back["canonical_form"]),
            ("outcome", mine["outcome"], peer_outcome(form)),
            ("temperature", mine["temperature"], peer_temperature),
        ]
        for what, a, b in checks:
            if a != b:
                failures += 1
                print(f"DIFFER {line}: {what}: sprague {a}, cgt-py {b} ({form_text(form)})")
    summary = ", ".join(f"{n} {g}" for g, n in sorted(per_game.items()))
    if failures:
        print(f"FAIL: {failures} differences over {len(lines)} positions ({summary})")
        sys.exit(1)
    print(f"ok: {len(lines)} positions agree with cgt-py {cgt_version()} ({summary}), seed {seed}")


def cgt_version():
    try:
        from importlib.metadata import version

        return version("cgt-py")
    except Exception:  # noqa: BLE001 - only a label
        return "?"


# ---------------------------------------------------------------------------------------------
# Benchmark.


def timed(command):
    """Runs a command under /usr/bin/time; returns (stdout, wall s, cpu s, peak MiB) of that
    child alone (a forked Python's own memory would count in its wait4 figures)."""
    with tempfile.NamedTemporaryFile(mode="w+") as times:
        result = subprocess.run(
            ["/usr/bin/time", "-f", "%e %U %S %M", "-o", times.name, *command],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            sys.exit(f"FAIL: {command[0]} exited {result.returncode}: {result.stderr.strip()}")
        wall, user, system, kib = times.read().split()[-4:]
    return result.stdout, float(wall), float(user) + float(system), int(kib) / 1024


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        model = re.search(r"model name\s*:\s*(.*)", info).group(1)
        flags = re.search(r"flags\s*:\s*(.*)", info).group(1).split()
        features = [x for x in ("avx2", "avx512f", "bmi2", "popcnt") if x in flags]
        return f"{model} ({os.cpu_count()} cpus; {' '.join(features)})"
    except (OSError, AttributeError):
        return platform.processor() or "unknown CPU"


def bench(example, boards):
    print(f"CPU: {cpu_model()}")
    print(f"cgt-py {cgt_version()}, Python {platform.python_version()}")
    print(
        f"{'board':6} | {'cgt-py wall':>11} {'cpu':>8} {'MiB':>6} | {'sprague wall':>12}"
        f" {'cpu':>8} {'MiB':>6} | {'wall x':>7} {'cpu x':>7} | load | value"
    )
    code = (
        "import sys, cgt_py; r, c = map(int, sys.argv[1].split('x'));"
        "print(repr(cgt_py.Domineering('|'.join(['.' * c] * r)).canonical_form))"
    )
    for board in boards:
        load = os.getloadavg()[0]
        out, pw, pc, pm = timed([sys.executable, "-c", code, board])
        peer = re.fullmatch(r"CanonicalForm\('(.*)'\)\n?", out).group(1)
        out, sw, sc, sm = timed([example, "value", f"domineering:{board}", "--json"])
        mine = json.loads(out)["canonical_form"]
        back = run_sprague(example, [f"cg {peer}"])[0]["canonical_form"]
        verdict = mine if back == mine else f"DIFFER: sprague {mine}, cgt-py {peer}"
        print(
            f"{board:6} | {pw:11.2f} {pc:8.2f} {pm:6.0f} | {sw:12.2f} {sc:8.2f} {sm:6.0f} |"
            f" {pw / max(sw, 1e-2):7.1f} {pc / max(sc, 1e-2):7.1f} | {load:4.2f} | {verdict}"
        )
        if back != mine:
            sys.exit(1)


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] not in ("crosscheck", "bench"):
        sys.exit(__doc__)
    mode, example, rest = args[0], args[1], args[2:]
    if mode == "crosscheck":
        count, seed = 240, 16
        while rest:
            flag, value, rest = rest[0], rest[1], rest[2:]
            if flag == "--count":
                count = int(value)
            elif flag == "--seed":
                seed = int(value)
            else:
                sys.exit(f"unknown option {flag}")
        crosscheck(example, count, seed)
    else:
        bench(example, rest or ["4x4", "4x5", "5x5", "5x6"])


if __name__ == "__main__":
    main()
