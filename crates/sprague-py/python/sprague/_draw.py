"""Pictures of positions for Jupyter: heaps of tokens, rows of coins and boards as SVG."""

from __future__ import annotations

import html
from typing import Any, Optional

_MAX_TOKENS = 40
_MAX_COINS = 64


def _svg(width: int, height: int, body: list) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'
        + "".join(body)
        + "</svg>"
    )


def _heaps(sizes: list) -> str:
    r, gap, left = 6, 15, 70
    body = []
    longest = min(max(sizes, default=0), _MAX_TOKENS)
    for row, n in enumerate(sizes):
        y = 14 + row * 20
        body.append(f'<text x="4" y="{y + 4}">heap {row + 1}: {n}</text>')
        for k in range(min(n, _MAX_TOKENS)):
            body.append(f'<circle cx="{left + k * gap}" cy="{y}" r="{r}" fill="#c0392b"/>')
        if n > _MAX_TOKENS:
            body.append(f'<text x="{left + _MAX_TOKENS * gap}" y="{y + 4}">… +{n - _MAX_TOKENS}</text>')
    width = left + longest * gap + 60
    return _svg(width, 20 * max(len(sizes), 1) + 8, body)


def _coins(heads: list) -> str:
    last = min(max(heads, default=1), _MAX_COINS)
    body = []
    for k in range(1, last + 1):
        x = 14 + (k - 1) * 24
        head = k in heads
        fill = "#f1c40f" if head else "#ecf0f1"
        body.append(f'<circle cx="{x}" cy="16" r="10" fill="{fill}" stroke="#7f8c8d"/>')
        body.append(f'<text x="{x}" y="20" text-anchor="middle">{"H" if head else "T"}</text>')
        body.append(f'<text x="{x}" y="42" text-anchor="middle" font-size="9">{k}</text>')
    if max(heads, default=0) > _MAX_COINS:
        body.append(f'<text x="{14 + last * 24}" y="20">… heads beyond {_MAX_COINS}: '
                    f'{sum(1 for h in heads if h > _MAX_COINS)}</text>')
    return _svg(28 + last * 24 + 120, 50, body)


_PIECES = {"x": "#2c3e50", "o": "#e74c3c", "#": "#7f8c8d", "L": "#2980b9", "R": "#c0392b",
           "B": "#2980b9", "W": "#bdc3c7"}


def _board(rows: list) -> str:
    cell = 28
    width = max((len(r) for r in rows), default=0)
    body = []
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            x, y = j * cell + 2, i * cell + 2
            body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#fdf6e3" stroke="#93a1a1"/>')
            if ch == "#":
                body.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="#7f8c8d"/>')
            elif ch not in ".-_ ":
                color = _PIECES.get(ch, "#34495e")
                body.append(f'<circle cx="{x + cell / 2}" cy="{y + cell / 2}" r="{cell / 2 - 4}" fill="{color}"/>')
                body.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 4}" text-anchor="middle" '
                            f'fill="white">{html.escape(ch)}</text>')
    return _svg(width * cell + 4, len(rows) * cell + 4, body)


def _grid_rows(text: str, layout: str) -> Optional[list]:
    """Board rows: `board:C:R` cuts the string; a grid written with `|` or `/` splits there."""
    if layout.startswith("board:"):
        columns = int(layout.split(":")[1])
        if columns > 0 and len(text) % columns == 0:
            return [text[i:i + columns] for i in range(0, len(text), columns)]
    for sep in "|/":
        if sep in text:
            rows = text.split(sep)
            if len({len(r) for r in rows}) == 1:
                return rows
    return None


def svg(layout: str, position: Any) -> Optional[str]:
    """An SVG picture of a position's JSON under its layout, or None when text says it best."""
    if layout == "heaps" and isinstance(position, list):
        if all(isinstance(n, int) for n in position):
            return _heaps(position)
        if all(isinstance(p, dict) for p in position):
            sizes = [n for p in position for n in p.get("position", []) if isinstance(n, int)]
            return _heaps(sizes)
    if layout == "coins" and isinstance(position, list) and all(isinstance(n, int) for n in position):
        return _coins(position)
    if isinstance(position, str):
        rows = _grid_rows(position, layout)
        if rows and len(rows) * max(len(r) for r in rows) <= 400:
            return _board(rows)
    return None
