"""Values, tables and periods from Python equal the command line's JSON on the same specs."""

import shlex

import numpy as np
import pytest

import sprague

POSITIONS = [
    "kayles 10 + nim 3",
    "nim 3 4 5",
    "0.137 20",
    "sub:1,3,4 17 + 0.07 9",
    "wythoff 3 5",
    "moore:2 0 2 0 0 + corners 0,0 0,2 1,1 2,3 4,0 4,1 5,1",
    "ruler 3 5 9",
    "mock-turtles 2 5 9",
    "cram ...|.#.|...",
    "cram:4x5 + chomp 4 4 3 1",
    "node-kayles 5:0-1,1-2,2-3,3-4,4-0 + nim 2",
    "mnk:3,3,3 x...o....",
    "domineering:2x3 + nim 1",
    "cg '{2|1||0}+^'",
    "hackenbush BBR RG",
]


@pytest.mark.parametrize("line", POSITIONS)
def test_value_matches_the_cli(cli, line):
    ours = sprague.value(line)
    assert ours.json == cli("value", *shlex.split(line), "--json")
    assert ours.outcome in {"N", "P", "D", "L", "R"}


@pytest.mark.parametrize("line", ["kayles 10", "0.137 20 + nim 2", "ruler 3 5"])
def test_misere_value_matches_the_cli(cli, line):
    ours = sprague.value(line, misere=True)
    assert ours.json == cli("value", *shlex.split(line), "--misere", "--json")


def test_fields_of_an_impartial_sum():
    v = sprague.value("kayles", 10, "+", "nim", 3)
    assert (v.outcome, v.nim_value, v.remoteness) == ("N", 1, 11)
    assert [m.move for m in v.winning_moves] == ["10 -> 1+7", "3 -> 2"]
    assert v.winning_moves[1].position == [
        {"game": "kayles", "position": [10]},
        {"game": "nim", "position": [2]},
    ]
    assert "nim_value=1" in repr(v)


def test_fields_of_a_partizan_position():
    v = sprague.value("domineering:2x2")
    assert (v.outcome, v.canonical_form, v.mean, v.temperature) == ("N", "±1", "0", "1")
    assert v.nim_value is None
    assert {m.move for m in v.left_winning_moves} == {"(1,1)-(2,1)", "(1,2)-(2,2)"}
    assert "canonical_form=±1" in repr(v)


def test_a_p_position_has_no_winning_move():
    v = sprague.value("nim", 1, 2, 3)
    assert (v.outcome, v.nim_value, v.winning_moves) == ("P", 0, [])


@pytest.mark.parametrize("spec,to", [("kayles", 300), ("0.6", 2000), ("sub:1,3,4", 100), ("grundy", 500)])
def test_table_matches_the_cli(cli, spec, to):
    ours = sprague.table(spec, to=to)
    assert isinstance(ours, np.ndarray)
    assert ours.dtype == np.uint64 and ours.shape == (to + 1,)
    assert ours.flags.c_contiguous
    assert ours.tolist() == cli("table", spec, "--to", str(to), "--format", "json")["values"]


def test_a_binary_table_from_the_cli_loads_into_numpy(tmp_path):
    """`table --format bin --output FILE` writes the checksummed table file; `load_table`
    reads it back whole and refuses it damaged."""
    import subprocess

    from conftest import _binary

    path = tmp_path / "kayles.nimv"
    subprocess.run(
        [str(_binary()), "table", "kayles", "--to", "300", "--format", "bin", "--output", str(path)],
        check=True,
        capture_output=True,
    )
    game, values, period = sprague.load_table(path)
    assert game == "kayles"
    assert values.dtype == np.uint64
    assert np.array_equal(values, sprague.table("kayles", to=300))
    assert (period.preperiod, period.period) == (71, 12)
    # One byte a value: the file is about 301 bytes of values and a header.
    assert path.stat().st_size < 301 + 200
    # Mapped instead of read: the same values, in the file's one byte a value.
    game, mapped, period = sprague.load_table(path, mmap=True)
    assert game == "kayles" and (period.preperiod, period.period) == (71, 12)
    assert isinstance(mapped, np.memmap) and mapped.dtype == np.uint8
    assert np.array_equal(mapped, values)
    del mapped
    damaged = bytearray(path.read_bytes())
    damaged[len(damaged) // 2] ^= 1
    path.write_bytes(bytes(damaged))
    for mmap in (False, True):
        with pytest.raises(sprague.StoreError, match="checksum"):
            sprague.load_table(path, mmap=mmap)


def test_table_with_one_thread_equals_two():
    assert np.array_equal(sprague.table("0.6", to=5000, threads=1), sprague.table("0.6", to=5000, threads=2))


def test_period_matches_the_cli(cli):
    p = sprague.period("kayles", max=200)
    assert (p.preperiod, p.period, p.certified_at, p.certified) == (71, 12, 167, True)
    assert cli("period", "kayles", "--max", "200", "--json") == {
        "preperiod": 71,
        "period": 12,
        "certified_at": 167,
    }
    none = sprague.period("0.6", max=3000)
    assert (none.period, none.checked_to, none.certified) == (None, 3000, False)


def test_catalog_lists_every_game_of_the_cli(cli):
    ours = sprague.catalog()
    theirs = cli("catalog", "--json")
    assert [e.spec for e in ours] == [e["spec"] for e in theirs]
    kinds = {e.spec: e.kind for e in ours}
    assert kinds["kayles"] == "impartial" and kinds["domineering:RxC"] == "partizan"


def test_solve_a_board():
    s = sprague.solve("mnk:3,3,3", progress=False)
    assert (s.outcome, s.remoteness) == ("D", 9)


def test_the_module_docstrings_run():
    import doctest

    for module in (sprague, sprague.nimber):
        result = doctest.testmod(
            module, extraglobs={"sprague": sprague, "np": np}, optionflags=doctest.ELLIPSIS
        )
        assert result.failed == 0 and result.attempted > 0, module.__name__
