"""sprague: combinatorial games solved exactly, from Python.

The engine of the ``sprague`` command line as a Python library: nim values (Sprague–Grundy),
outcomes and every winning move of sums of games, misère play, octal tables with certified
periods, nimber arithmetic on NumPy arrays, partizan values (canonical forms, temperatures) and
strong solutions of board games. Games are named as on the command line (``sprague.catalog()``
lists them): a spec such as ``kayles``, ``sub:1,3,4``, ``0.137`` or ``domineering:3x3``, then
the position's words, and ``+`` between the parts of a sum.

>>> import sprague
>>> v = sprague.value("kayles 10 + nim 3")
>>> v.outcome, v.nim_value, [m.move for m in v.winning_moves]
('N', 1, ['10 -> 1+7', '3 -> 2'])
>>> sprague.table("kayles", to=12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
>>> g = sprague.Game("nim", 3, 5) + sprague.Game("kayles", 4)
>>> g.play("2:5 -> 3").value().outcome
'N'
"""

from __future__ import annotations

import json as _json
import os
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _draw, _errors, _sprague, nimber
from ._errors import (
    ScriptError,
    SpecError,
    SpragueError,
    StoreError,
    TooLargeError,
    UnsupportedError,
)

__all__ = [
    "value",
    "table",
    "load_table",
    "period",
    "catalog",
    "solve",
    "Game",
    "Value",
    "Move",
    "Option",
    "Period",
    "Entry",
    "Solution",
    "nimber",
    *_errors.__all__,
]

__version__ = "0.1.0"

Word = Union[str, int]


def _words(spec: str, position: Iterable[Word]) -> List[str]:
    """The command line's words: the spec (split like a shell when it holds the whole
    position, e.g. ``"kayles 10 + nim 3"``) and the position's words."""
    if not isinstance(spec, str):
        raise SpecError(f"a game spec is a string such as 'kayles', got {spec!r}")
    words = shlex.split(spec) if any(c.isspace() for c in spec.strip()) else [spec]
    for w in position:
        if isinstance(w, bool) or not isinstance(w, (str, int, np.integer)):
            raise SpecError(f"position words are strings or ints, got {w!r}")
        words.append(str(w))
    if not words or not words[0].strip():
        raise SpecError("no game given; sprague.catalog() lists the games")
    return words


def _store() -> dict:
    """The solution store of the command line, from the environment (read here, by the front
    end): ``SPRAGUE_DB_DIR`` (empty: memory only), else ``$XDG_CACHE_HOME`` or ``~/.cache``."""
    env = os.environ
    return {
        "db_dir": env.get("SPRAGUE_DB_DIR"),
        "xdg_cache": env.get("XDG_CACHE_HOME"),
        "home": env.get("HOME"),
    }


@dataclass(frozen=True)
class Move:
    """A winning move: its text (as ``Game.play`` takes it), the position it leaves (the CLI's
    JSON of that position), the part of a sum it is made in (0-based) and, in partizan
    positions, the player who makes it (``L`` or ``R``)."""

    move: str
    position: Any
    component: Optional[int] = None
    side: Optional[str] = None

    @classmethod
    def _of(cls, d: dict, side: Optional[str] = None) -> "Move":
        return cls(d["move"], d["position"], d.get("component"), side)


@dataclass(frozen=True)
class Value:
    """What ``sprague value`` answers: the same fields as its JSON (``.json`` holds it whole).

    Impartial sums: ``outcome`` (``N`` the player to move wins, ``P`` loses, ``D`` draw),
    ``nim_value``, ``remoteness`` and ``winning_moves``. Partizan positions: ``outcome``
    (``L``, ``R``, ``N``, ``P``), ``canonical_form``, ``mean``, ``temperature`` and each
    player's winning moves.
    """

    game: str
    position: Any
    outcome: str
    nim_value: Optional[int]
    remoteness: Optional[int]
    winning_moves: List[Move]
    canonical_form: Optional[str] = None
    mean: Optional[str] = None
    temperature: Optional[str] = None
    left_winning_moves: List[Move] = field(default_factory=list)
    right_winning_moves: List[Move] = field(default_factory=list)
    json: dict = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def _of(cls, d: dict) -> "Value":
        moves = lambda key, side=None: [Move._of(m, side) for m in d.get(key) or []]  # noqa: E731
        return cls(
            game=d["game"],
            position=d.get("position"),
            outcome=d["outcome"],
            nim_value=d.get("nim_value"),
            remoteness=d.get("remoteness"),
            winning_moves=moves("winning_moves"),
            canonical_form=d.get("canonical_form"),
            mean=d.get("mean"),
            temperature=d.get("temperature"),
            left_winning_moves=moves("left_winning_moves", "L"),
            right_winning_moves=moves("right_winning_moves", "R"),
            json=d,
        )

    def __repr__(self) -> str:
        bits = [f"outcome={self.outcome}"]
        if self.canonical_form is not None:
            bits.append(f"canonical_form={self.canonical_form}")
        if self.nim_value is not None:
            bits.append(f"nim_value={self.nim_value}")
        if self.remoteness is not None:
            bits.append(f"remoteness={self.remoteness}")
        if self.canonical_form is None:
            shown = ", ".join(m.move for m in self.winning_moves[:4])
            more = ", …" if len(self.winning_moves) > 4 else ""
            bits.append(f"winning_moves=[{shown}{more}]")
        return f"<Value {self.game}: {' '.join(bits)}>"


def value(spec: str, *position: Word, misere: bool = False) -> Value:
    """The value of a position: outcome, nim value, remoteness and every winning move.

    ``spec`` names the game as the command line does (``sprague.catalog()`` lists them); the
    position's words follow, or the whole line is one string::

        sprague.value("kayles", 10)                # a heap of 10 in Kayles
        sprague.value("kayles 10 + nim 3")         # a sum
        sprague.value("0.137", 20, misere=True)    # misère play
        sprague.value("domineering:3x3")           # partizan: canonical form, temperature

    Raises ``SpecError`` (a ``ValueError``) for a bad spec or position, ``TooLargeError`` past
    the engine's bounds, ``UnsupportedError`` when the game cannot answer (e.g. misère play of
    a partizan game).
    """
    native = _sprague.Position(_words(spec, position), **_store())
    return Value._of(_json.loads(native.value(misere)))


def _progress(enabled: bool) -> Optional[Callable[[str, Any, Any], None]]:
    """A progress callback drawing a tqdm bar, when tqdm is installed and ``enabled``."""
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    bar = [None]

    def callback(event: str, a: Any, b: Any) -> None:
        if event == "start":
            if bar[0] is not None:
                bar[0].close()
            bar[0] = tqdm(total=b or None, desc=str(a), leave=False)
        elif event == "advance" and bar[0] is not None:
            bar[0].n = a
            if b:
                bar[0].set_postfix_str(str(b), refresh=False)
            bar[0].refresh()
        elif event == "finish" and bar[0] is not None:
            bar[0].close()
            bar[0] = None

    return callback


def table(spec: str, to: int, *, threads: Optional[int] = None, progress: bool = False) -> np.ndarray:
    """G(0), G(1), …, G(to) of a heap game as a NumPy ``uint64`` array.

    The array takes over the engine's own buffer (no element-by-element copy). Take-and-break
    codes with splits (``0.6``, ``0.007``, ``grundy``) run the engine's sparse-space method on
    ``threads`` (1 or 2; default: 2 where the machine has them). ``progress=True`` shows a
    tqdm bar when tqdm is installed.

    >>> sprague.table("0.07", to=10).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3]
    """
    if not isinstance(to, (int, np.integer)) or isinstance(to, bool) or to < 0:
        raise SpecError(f"to must be a heap size >= 0, got {to!r}")
    _, values, _ = _sprague.table(spec, int(to), threads, _progress(progress))
    return values


def load_table(path: str, mmap: bool = False) -> "tuple[str, np.ndarray, Optional[Period]]":
    """A table saved by ``sprague table GAME --to N --format bin --output FILE``: the game, its
    values G(0), G(1), … as a NumPy ``uint64`` array, and its certified period (or ``None``).

    With ``mmap=True`` the values are not read into memory: they come as a read-only
    ``numpy.memmap`` of the file, in the file's own width (``uint8``, ``uint16``, ``uint32`` or
    ``uint64``, the fewest bytes the largest value needs), so a table larger than the machine's
    memory can be used.

    The file is checked whole first (its checksum, every field); a damaged one raises
    ``sprague.StoreError``.
    """
    if mmap:
        game, width, count, period, offset = _sprague.table_layout(str(path))
        values = np.memmap(
            str(path), dtype=np.dtype(f"<u{width}"), mode="r", offset=offset, shape=(count,)
        )
    else:
        game, values, period = _sprague.load_table(str(path))
    if period is not None:
        period = Period(game, period[0], period[1], certified_at=period[2])
    return game, values, period


@dataclass(frozen=True)
class Period:
    """A heap game's period: G(n + period) = G(n) for every n >= preperiod, certified with the
    values up to ``certified_at``; ``period is None`` when none was certified up to
    ``checked_to``."""

    game: str
    preperiod: Optional[int]
    period: Optional[int]
    certified_at: Optional[int] = None
    checked_to: Optional[int] = None

    @property
    def certified(self) -> bool:
        return self.period is not None


def period(spec: str, max: int = 100_000, *, progress: bool = False) -> Period:  # noqa: A002
    """The certified period of a heap game, searched up to heap ``max``.

    >>> sprague.period("kayles", max=200)
    Period(game='kayles', preperiod=71, period=12, certified_at=167, checked_to=None)
    """
    if not isinstance(max, (int, np.integer)) or isinstance(max, bool) or max < 0:
        raise SpecError(f"max must be a heap size >= 0, got {max!r}")
    name, report = _sprague.period(spec, int(max), _progress(progress))
    d = _json.loads(report)
    return Period(name, d.get("preperiod"), d.get("period"), d.get("certified_at"), d.get("checked_to"))


@dataclass(frozen=True)
class Entry:
    """One game of the catalog, as ``sprague catalog`` lists it."""

    spec: str
    name: str
    params: str
    position: str
    summary: str
    example: str
    kind: str
    layout: str


def catalog() -> List[Entry]:
    """Every game sprague knows, with its spec, position syntax, summary and an example."""
    fields = Entry.__dataclass_fields__
    return [Entry(**{k: e.get(k, "") for k in fields}) for e in _json.loads(_sprague.catalog_json())]


@dataclass(frozen=True)
class Solution:
    """A strong solution, as ``sprague solve --json`` reports it (``.json`` holds it whole)."""

    game: str
    outcome: str
    remoteness: Optional[int]
    json: dict = field(repr=False, compare=False)


def solve(spec: str, *position: Word, progress: bool = True) -> Solution:
    """Strongly solves a board game (every position reachable from the start), keeping the
    table in the same store as the command line (``SPRAGUE_DB_DIR``, else the user's cache
    directory), so later calls and ``sprague`` itself reuse it. Shows a tqdm bar when tqdm is
    installed and ``progress`` is true.

    >>> sprague.solve("mnk:3,3,3").outcome
    'D'
    """
    report = _sprague.solve(_words(spec, position), progress=_progress(progress), **_store())
    d = _json.loads(report)
    return Solution(d.get("game", spec), d.get("outcome", ""), d.get("remoteness"), d)


@dataclass(frozen=True)
class Option:
    """A legal move from a ``Game``: its text, the game after it and that position's value.

    In partizan positions ``side`` is the player who moves (``L`` or ``R``), ``outcome`` the
    outcome class after the move (``L``, ``R``, ``N``, ``P``), ``canonical_form`` the value
    after it and ``wins`` whether the move wins for its player when that player starts.
    """

    move: str
    game: "Game"
    outcome: str
    nim_value: Optional[int]
    remoteness: Optional[int]
    side: Optional[str] = None
    canonical_form: Optional[str] = None
    wins: Optional[bool] = None


_SIDES = {"L": "L", "l": "L", "left": "L", "Left": "L", "R": "R", "r": "R", "right": "R", "Right": "R"}


def _side(side: Optional[str]) -> Optional[str]:
    """``L``, ``R`` or ``None`` from the ways a player may be named."""
    if side is None:
        return None
    if side not in _SIDES:
        raise SpecError(f"a player is 'L' (Left) or 'R' (Right), got {side!r}")
    return _SIDES[side]


class Game:
    """A position of any game of the catalog (or a sum of them), parsed once and checked.

    >>> g = sprague.Game("kayles", 4)
    >>> [o.move for o in g.moves()]
    ['4 -> 3', '4 -> 1+2', '4 -> 2', '4 -> 1+1']
    >>> (g + sprague.Game("nim 2")).value().nim_value
    3

    In Jupyter a heap row, a row of coins or a board draws itself.
    """

    __slots__ = ("_position", "misere")

    def __init__(self, spec: str, *position: Word, misere: bool = False):
        self._position = _sprague.Position(_words(spec, position), **_store())
        self.misere = misere

    @classmethod
    def _wrap(cls, native: Any, misere: bool) -> "Game":
        game = cls.__new__(cls)
        game._position = native
        game.misere = misere
        return game

    @property
    def kind(self) -> str:
        """``impartial`` (valued by nim values), ``partizan`` or ``single`` (solved whole)."""
        return self._position.kind

    @property
    def spec(self) -> str:
        """The game spec(s), e.g. ``kayles + nim``."""
        return self._position.game

    @property
    def position(self) -> Any:
        """The position as the command line's JSON writes it."""
        return _json.loads(self._position.json())

    def value(self) -> Value:
        """As ``sprague.value``: outcome, nim value (or canonical form) and winning moves."""
        return Value._of(_json.loads(self._position.value(self.misere)))

    def moves(self, side: Optional[str] = None) -> List[Option]:
        """Every legal move with the position it leaves and that position's value.

        In a partizan position both players have moves: Left's are listed first, each
        ``Option`` names its ``side``; ``side="L"`` or ``"R"`` lists one player's only.
        """
        side = _side(side)
        if self.kind == "partizan":
            return [
                Option(
                    f"{part + 1}:{text}" if part is not None else text,
                    Game._wrap(after, self.misere),
                    outcome,
                    None,
                    None,
                    mover,
                    form,
                    wins,
                )
                for mover, text, part, after, form, outcome, wins in self._position.partizan_options()
                if side in (None, mover)
            ]
        if side is not None:
            raise UnsupportedError("side= names a player of a partizan game; in this game both players have the same moves")
        return [
            Option(text, Game._wrap(after, self.misere), outcome, nim, remoteness)
            for text, after, outcome, nim, remoteness in self._position.options(self.misere)
        ]

    def play(self, move: Union[str, Move, "Option"], side: Optional[str] = None) -> "Game":
        """The game after ``move``: its text as ``moves()`` lists it (``2:5 -> 3`` names the
        part of a sum), an ``Option`` of ``moves()``, or a ``Move`` of ``value().winning_moves``.

        In a partizan position a move's text may be a move of either player: ``side="L"`` or
        ``"R"`` says whose (``Option`` and ``Move`` values carry it).
        """
        side = _side(side)
        if isinstance(move, Option):
            move, side = move.move, side or move.side
        if self.kind == "partizan":
            return self._play_partizan(move, side)
        if isinstance(move, Move):
            native = self._position.play(move.move, self.misere, move.component)
        else:
            native = self._position.play(str(move), self.misere)
        return Game._wrap(native, self.misere)

    def _play_partizan(self, move: Union[str, Move], side: Optional[str]) -> "Game":
        """``play`` in a partizan position: the move of that text (and part, and player)."""
        if isinstance(move, Move):
            side = side or move.side
            text = f"{move.component + 1}:{move.move}" if move.component is not None else move.move
        else:
            text = str(move)
        found = [o for o in self.moves(side) if o.move == text]
        if not found:
            whose = {"L": "Left", "R": "Right"}.get(side or "", "either player")
            raise SpecError(f"'{text}' is not a legal move of {whose} in {self}; moves() lists them")
        if len({o.side for o in found}) > 1:
            raise SpecError(f"'{text}' is a move of both players in {self}; say whose with side='L' or 'R'")
        return found[0].game

    def __add__(self, other: "Game") -> "Game":
        if not isinstance(other, Game):
            return NotImplemented
        return Game._wrap(self._position.add(other._position), self.misere)

    def __str__(self) -> str:
        return str(self._position)

    def __repr__(self) -> str:
        return f"Game({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and str(self) == str(other) and self.misere == other.misere

    def __hash__(self) -> int:
        return hash((str(self), self.misere))

    def _repr_svg_(self) -> Optional[str]:
        return _draw.svg(self._position.layout, self.position)

    def _repr_html_(self) -> str:
        import html

        picture = self._repr_svg_() or ""
        return f"<div>{picture}<pre>{html.escape(str(self))}</pre></div>"
