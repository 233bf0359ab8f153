"""Games as Python objects: moves, play, sums, pictures."""

import pytest

import sprague


def test_moves_and_play():
    g = sprague.Game("kayles", 4)
    assert [o.move for o in g.moves()] == ["4 -> 3", "4 -> 1+2", "4 -> 2", "4 -> 1+1"]
    winning = [o for o in g.moves() if o.outcome == "P"]
    assert [(o.move, o.nim_value) for o in winning] == [("4 -> 1+1", 0)]
    after = g.play("4 -> 1+1")
    assert str(after) == "kayles 1 1"
    assert after.value().outcome == "P"
    # Playing on to the end.
    while after.moves():
        after = after.play(after.moves()[0].move)
    assert after.moves() == [] and after.value().outcome == "P"


def test_sums_with_plus():
    g = sprague.Game("nim", 3, 5) + sprague.Game("kayles 4")
    assert str(g) == "nim 3 5 + kayles 4"
    assert g.value().nim_value == 3 ^ 5 ^ 1
    assert str(g.play("2:5 -> 3")) == "nim 3 3 + kayles 4"
    with pytest.raises(sprague.SpecError, match="not a legal move"):
        g.play("2:5 -> 9")
    mixed = sprague.Game("domineering:2x2") + sprague.Game("nim 1")
    assert mixed.kind == "partizan"
    assert mixed.value().canonical_form == sprague.value("domineering:2x2 + nim 1").canonical_form
    # The nim heap moves for both players: 2:1 -> 0 is a move of Left and of Right.
    with pytest.raises(sprague.SpecError, match="both players"):
        mixed.play("2:1 -> 0")
    assert str(mixed.play("2:1 -> 0", side="R")) == "domineering:2x2 ..|.. + nim"


def test_partizan_moves_and_play():
    """Both players' moves of a partizan position with the value after each (Domineering 2×2
    is ±1: each player's domino leaves the other no move and one of their own); playing them
    by text, by Option and by the moves of value()."""
    g = sprague.Game("domineering:2x2")
    assert g.value().canonical_form == "±1"
    moves = g.moves()
    left = [o for o in moves if o.side == "L"]
    right = [o for o in moves if o.side == "R"]
    assert len(left) == 2 and len(right) == 2 and moves == left + right
    assert g.moves(side="left") == left and g.moves("R") == right
    # Left's vertical domino leaves 1 (Left's next move), so it wins for Left.
    assert all(o.canonical_form == "1" and o.outcome == "L" and o.wins for o in left)
    assert all(o.canonical_form == "-1" and o.outcome == "R" and o.wins for o in right)
    assert all(o.nim_value is None and o.remoteness is None for o in moves)
    after = g.play(left[0])
    assert after == left[0].game and after.value().canonical_form == "1"
    for move in g.value().left_winning_moves:
        assert move.side == "L" and g.play(move).value().canonical_form == "1"
    with pytest.raises(sprague.SpecError, match="not a legal move of Left"):
        g.play(right[0].move, side="L")
    with pytest.raises(sprague.SpecError, match="a player is"):
        g.moves(side="up")
    with pytest.raises(sprague.UnsupportedError, match="side="):
        sprague.Game("nim 3").moves(side="L")


def test_misere_games_play_misere():
    g = sprague.Game("nim", 1, 1, misere=True)
    assert g.value().outcome == "N"
    assert g.play("1:1 -> 0").misere


def test_pictures():
    heaps = sprague.Game("nim", 3, 50)._repr_svg_()
    assert heaps.startswith("<svg") and heaps.count("<circle") == 3 + 40 and "+10" in heaps
    coins = sprague.Game("ruler", 2, 5)._repr_svg_()
    assert coins.count(">H<") == 2 and coins.count(">T<") == 3
    board = sprague.Game("mnk:3,3,3 x...o....")._repr_svg_()
    assert board.count("<rect") == 9 and board.count("<circle") == 2
    grid = sprague.Game("domineering", "..|.#")._repr_svg_()
    assert grid.count("<rect") == 4 + 1
    html = sprague.Game("cg", "^")._repr_html_()
    assert "<pre>cg ^</pre>" in html


def test_equality_and_hashing():
    assert sprague.Game("nim 3") == sprague.Game("nim", 3)
    assert len({sprague.Game("nim 3"), sprague.Game("nim", "3"), sprague.Game("nim 4")}) == 2


def test_play_the_winning_moves_of_value():
    g = sprague.Game("kayles", 10) + sprague.Game("nim", 3)
    for move in g.value().winning_moves:
        assert g.play(move).value().outcome == "P"
    with pytest.raises(sprague.SpecError, match="part 2 has no move"):
        g.play(sprague.Move("3 -> 7", None, 1))
    option = g.moves()[0]
    assert g.play(option) == option.game
