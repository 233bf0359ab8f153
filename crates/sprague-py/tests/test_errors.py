"""Bad input raises the documented exceptions; nothing crashes the interpreter."""

import numpy as np
import pytest

import sprague


@pytest.mark.parametrize(
    "call",
    [
        lambda: sprague.value("kayless 3"),
        lambda: sprague.value("kayles -3"),
        lambda: sprague.value("sub:1,x 3"),
        lambda: sprague.value("nim 1 +"),
        lambda: sprague.value("nim", 2**70),
        lambda: sprague.value(""),
        lambda: sprague.value(42),
        lambda: sprague.value("nim", 1.5),
        lambda: sprague.value("domineering", "..|."),
        lambda: sprague.value("cg", "{1|"),
        lambda: sprague.Game("hackenbush", "BXQ"),
        lambda: sprague.table("kayles", to=-1),
    ],
)
def test_spec_errors_are_value_errors(call):
    with pytest.raises(sprague.SpecError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_too_large():
    with pytest.raises(sprague.TooLargeError, match="memory|large|more than|at most|limit"):
        sprague.table("0.6", to=2**62)
    with pytest.raises(sprague.TooLargeError, match="at most 512"):
        sprague.value("wythoff 600 600 + nim 1")


def test_unsupported():
    with pytest.raises(sprague.UnsupportedError, match="not a heap game"):
        sprague.table("domineering", to=3)
    with pytest.raises(sprague.UnsupportedError):
        sprague.solve("domineering:2x2", progress=False)


def test_nimber_operands_out_of_range():
    with pytest.raises(ValueError):
        sprague.nimber.mul(-1, 2)
    with pytest.raises(ValueError):
        sprague.nimber.mul(2**64, 1)
    with pytest.raises(ValueError):
        sprague.nimber.mul(np.array([1, -2]), 3)
    with pytest.raises(TypeError):
        sprague.nimber.mul(np.array([1.5]), 3)
    with pytest.raises(ZeroDivisionError):
        sprague.nimber.inv(0)
    with pytest.raises(ZeroDivisionError):
        sprague.nimber.inv(np.array([3, 0], dtype=np.uint64))
    with pytest.raises(ZeroDivisionError):
        sprague.nimber.div(5, 0)


def test_every_error_is_a_sprague_error():
    for cls in (sprague.SpecError, sprague.TooLargeError, sprague.UnsupportedError, sprague.ScriptError, sprague.StoreError):
        assert issubclass(cls, sprague.SpragueError)


def test_ctrl_c_stops_a_long_computation():
    """A KeyboardInterrupt stops a long period search, as it stops Python code."""
    import os
    import signal
    import threading

    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            # Officers has no known period: this search would run for a very long time.
            sprague.period("officers", max=10**8)
    finally:
        timer.cancel()
    # The engine still answers afterwards.
    assert sprague.period("kayles", max=200).period == 12


def _interrupt_soon(seconds=0.5):
    """A timer that sends this process SIGINT (Python's Ctrl-C) after ``seconds``."""
    import os
    import signal
    import threading

    timer = threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    return timer


def test_ctrl_c_stops_value_and_moves():
    """A KeyboardInterrupt stops value() and moves() of a game whose search runs long (a misère
    sum past the SJ rule and quotients), and the games still answer afterwards."""
    small = sprague.Game("grundy", 7, misere=True)
    big = small + sprague.Game("grundy", 150, 145, 2, 138, 174, 43, misere=True)
    for call in (big.value, big.moves):
        timer = _interrupt_soon()
        try:
            with pytest.raises(KeyboardInterrupt):
                call()
        finally:
            timer.cancel()
    # The part parsed on its own shares its budget with the sum: it was restarted.
    assert small.value().outcome == sprague.value("grundy 7", misere=True).outcome
