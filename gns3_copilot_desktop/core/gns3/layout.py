"""Where new nodes go on the canvas: free grid cells next to what is already there.

GNS3 node symbols are about 60x60 scene units with a label under them, so nodes are placed on a
grid of `SPACING` units. New nodes fill free cells row by row, starting right of the existing
nodes' top row (or at the origin in an empty project), and never closer than `SPACING` to an
existing node or another new one. Pure functions: easy to test.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SPACING = 150
"""Grid step in scene units (symbol + label + room for link labels)."""
ROW_LENGTH = 6
"""New nodes per row before wrapping."""

Point = tuple[int, int]


def _too_close(candidate: Point, taken: Iterable[Point], spacing: int) -> bool:
    cx, cy = candidate
    return any(abs(cx - x) < spacing and abs(cy - y) < spacing for x, y in taken)


def place_nodes(
    existing: Sequence[Point],
    count: int,
    *,
    near: Point | None = None,
    spacing: int = SPACING,
    row_length: int = ROW_LENGTH,
) -> list[Point]:
    """`count` positions that overlap no existing node nor each other.

    Rows of `row_length` cells from an anchor: `near` when given, else right of the existing
    nodes (aligned with the topmost one), else the origin.
    """
    if count <= 0:
        return []
    if near is not None:
        anchor = near
    elif existing:
        anchor = (max(x for x, _ in existing) + spacing, min(y for _, y in existing))
    else:
        anchor = (0, 0)
    taken = list(existing)
    placed: list[Point] = []
    index = 0
    while len(placed) < count:
        row, col = divmod(index, row_length)
        candidate = (anchor[0] + col * spacing, anchor[1] + row * spacing)
        index += 1
        if not _too_close(candidate, taken, spacing):
            placed.append(candidate)
            taken.append(candidate)
    return placed


def overlaps(points: Sequence[Point], spacing: int = SPACING) -> list[tuple[Point, Point]]:
    """Pairs of points closer than `spacing` on both axes (for checks and tests)."""
    pairs = []
    for i, a in enumerate(points):
        for b in points[i + 1 :]:
            if _too_close(a, [b], spacing):
                pairs.append((a, b))
    return pairs
