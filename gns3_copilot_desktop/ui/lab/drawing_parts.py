"""The pieces a lab drawing is made of: its sizes and colours (state hues readable on either
background), node kinds and their icons, the geometry that places labels where they hide nothing,
and the texts of its tooltips and its spoken description."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from PyQt6.QtCore import QCoreApplication, QPointF, QRectF, QSize
from PyQt6.QtGui import (
    QColor,
    QPainter,
    QPainterPath,
    QPalette,
)
from PyQt6.QtWidgets import QApplication

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.theme import colors, contrast_ratio, is_dark, readable_on

SYMBOL = 50
"""GNS3 places a node by the top-left corner of a symbol about this many scene units wide."""
ICON = 30
MARGIN = 16
LABEL_ROWS = 2  # the name and one address under an icon
LEGEND_H = 22
"""One row of the legend (it wraps to more rows in a narrow column)."""

ROUTER_TYPES = frozenset({"dynamips", "iou"})
SWITCH_TYPES = frozenset({"ethernet_switch", "ethernet_hub", "frame_relay_switch", "atm_switch"})
GAP = 2
"""Free pixels kept around every label, so that neighbours never touch."""
MAX_TIP_LINKS = 16
"""A node's tooltip lists at most this many of its links."""
PORT_WIDTH = 90
SUBNET_WIDTH = 110
"""The widest a port or subnet label may be (longer ones are elided in the middle)."""

HOST_TYPES = frozenset({"vpcs", "docker", "traceng"})
MIN_CONTRAST = 4.5
"""WCAG's minimum contrast for text, also asked of the state hues."""
CLOUD_TYPES = frozenset({"cloud", "nat"})


def state_colour(state: str, palette: QPalette) -> QColor:
    """The hue of an item's state: new green, removed red, changed amber, unchanged muted."""
    dark = is_dark(palette)
    if state == "new":
        hue = QColor("#5cc06a" if dark else "#1b7a2b")
    elif state == "removed":
        hue = QColor("#ff7b72" if dark else "#c62828")
    elif state == "changed":
        hue = QColor("#e3b341" if dark else "#8a5a00")
    else:
        hue = QColor(colors(palette).muted)
    # a host style sheet (the GNS3 GUI's charcoal #535353) may put the drawing on a background
    # neither hue was chosen for: moved toward the colour that reads there (the text colour,
    # unless the host's text does not read on it either: its "color: black" on #535353)
    base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
    if contrast_ratio(text, base) < MIN_CONTRAST:
        text = QColor("#ffffff" if base.lightness() < 128 else "#000000")
    return readable_on(hue, base, text)


def drawing_palette(palette: QPalette) -> QPalette:
    """The palette a drawing is painted with: ``palette``, unless a style sheet left its
    background or text see-through (the chat's isolation from a host style sheet sets
    ``background: transparent``; hues chosen against a transparent black came out black):
    then the application's own colours, which the card around the drawing is painted with."""
    role = QPalette.ColorRole
    if all(palette.color(r).alpha() == 255 for r in (role.Base, role.Text, role.Window)):
        return palette
    fixed = QPalette(palette)
    app = QApplication.palette()
    for r in (role.Base, role.Text, role.Window, role.WindowText):
        fixed.setColor(r, app.color(r))
    return fixed


def status_colour(status: str, palette: QPalette) -> QColor:
    """A running node green, a stopped one red, a suspended one amber."""
    return state_colour(
        {"started": "new", "stopped": "removed", "suspended": "changed"}.get(status, "unchanged"),
        palette,
    )


_LONG_PORT = re.compile(r"([A-Za-z][A-Za-z-]{5,})(\d[\w/.:-]*)")


def short_port(name: str) -> str:
    """An interface name as the drawing writes it: a word of six letters or more before the
    number becomes its first two letters (``GigabitEthernet0/1`` -> ``Gi0/1``, ``Serial1/0`` ->
    ``Se1/0``) and plain ``Ethernet`` an ``e`` (``Ethernet0/0`` -> ``e0/0``, as GNS3 writes
    short names); shorter names (``eth0``, ``f0/0``) stay as they are."""
    match = _LONG_PORT.fullmatch(name.strip())
    if match is None:
        return name
    word, number = match.groups()
    if word.lower() == "ethernet":
        return "e" + number
    return word[0].upper() + word[1].lower() + number


@dataclass(frozen=True)
class _Placed:
    node: PictureNode
    centre: QPointF


@dataclass(frozen=True)
class _Label:
    kind: str
    """name / address / port / subnet"""
    rect: QRectF
    text: str
    state: str
    """The state of the node or link it belongs to (its text takes that hue)."""
    owner: str = ""
    """The node a name or address belongs to."""


class _Room:
    """The free space of a drawing: where a label can go without hiding an icon or another
    label, preferably without covering a line it does not belong to."""

    def __init__(
        self, bounds: QRectF, taken: list[QRectF], lines: list[tuple[QPointF, QPointF]]
    ) -> None:
        self.bounds = bounds
        self.taken = taken
        self.lines = lines
        self.yielding: list[QRectF] = []
        """Taken by labels that give way to a port with no other room (addresses)."""
        self.pushed_aside: list[QRectF] = []
        """What yielded (those labels are left out)."""

    def fits(self, rect: QRectF, beside: QRectF | None = None, pushing: bool = False) -> bool:
        """Whether ``rect`` is inside the bounds and clear of everything taken (it may touch
        ``beside``: an address under its name; and, ``pushing``, overlap what yields)."""
        padded = rect.adjusted(-GAP, -GAP, GAP, GAP)
        return self.bounds.contains(rect) and not any(
            padded.intersects(t)
            for t in self.taken
            if t is not beside and not (pushing and any(t is y for y in self.yielding))
        )

    def push_aside(self, rect: QRectF) -> None:
        """Free what yields where ``rect`` goes (its labels are then left out)."""
        padded = rect.adjusted(-GAP, -GAP, GAP, GAP)
        for taken in [y for y in self.yielding if padded.intersects(y)]:
            self.yielding.remove(taken)
            self.pushed_aside.append(taken)
            self.taken = [t for t in self.taken if t is not taken]

    def crosses_a_line(self, rect: QRectF, own: int) -> bool:
        """Whether ``rect`` covers part of a line other than line number ``own``."""
        return any(_crosses(rect, a, b) for i, (a, b) in enumerate(self.lines) if i != own)

    def first_free(
        self, size: QSize, spots: list[tuple[QPointF, bool]], own: int, pushing: bool = False
    ) -> QRectF | None:
        """The best of ``spots`` (centre, on the label's own line) that is free, and take it:
        one that covers no other line before one that does (allowed only on its own line, which
        it still reads as part of), on the line before beside it, free before one that pushes
        aside what yields (``pushing``), then in the order given. None when none is free."""
        best: tuple[tuple[bool, bool, bool, int], QRectF, bool] | None = None
        for index, (centre, on_line) in enumerate(spots):
            rect = QRectF(0, 0, size.width(), size.height())
            rect.moveCenter(centre)
            if self.fits(rect):
                push = False
            elif pushing and self.fits(rect, pushing=True):
                push = True
            else:
                continue
            crosses = self.crosses_a_line(rect, own)
            rank = (crosses, not on_line, push, index)
            if (on_line or not crosses) and (best is None or rank < best[0]):
                best = (rank, rect, push)
        if best is None:
            return None
        _, found, push = best
        if push:
            self.push_aside(found)
        self.taken.append(found)
        return found


_STATE_ORDER = {"new": 0, "changed": 1, "removed": 2, "unchanged": 3}


def _dot_centre(icon: QRectF) -> QPointF:
    """A status dot sits on its icon's top right corner."""
    return QPointF(icon.right() - 2, icon.top() + 2)


def _box(centre: QPointF) -> QRectF:
    return QRectF(centre.x() - ICON / 2, centre.y() - ICON / 2, ICON, ICON)


def _extent(size: QSize, direction: QPointF) -> float:
    """How long a box of ``size`` is along the unit vector ``direction``."""
    return size.width() * abs(direction.x()) + size.height() * abs(direction.y())


def _away_from_others(
    node: QPointF, across: QPointF, lines: list[tuple[QPointF, QPointF]], own: int
) -> float:
    """Positive when ``across`` points away from the other lines leaving ``node``, negative
    when toward them (zero: no other line, or as many on either side)."""
    towards = 0.0
    for index, (a, b) in enumerate(lines):
        if index == own or node not in (a, b):
            continue
        other = b - node if a == node else a - node
        length = math.hypot(other.x(), other.y())
        if length >= 1:
            towards += (other.x() * across.x() + other.y() * across.y()) / length
    return -towards


def _crosses(rect: QRectF, a: QPointF, b: QPointF) -> bool:
    """Whether the segment a-b passes through ``rect`` (Liang-Barsky clipping)."""
    dx, dy = b.x() - a.x(), b.y() - a.y()
    low, high = 0.0, 1.0
    for p, q in (
        (-dx, a.x() - rect.left()),
        (dx, rect.right() - a.x()),
        (-dy, a.y() - rect.top()),
        (dy, rect.bottom() - a.y()),
    ):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def _vertical(scale: float) -> float:
    """The vertical scale: in a narrow column rows keep more of their distance than columns
    (the order of nodes on both axes is kept, so the drawing still reads like the canvas)."""
    return max(scale, min(1.0, 0.6))


def kind_of(node_type: str) -> str:
    """The icon drawn for a GNS3 node type."""
    if node_type in ROUTER_TYPES or node_type == "qemu":
        return "router"
    if node_type in SWITCH_TYPES:
        return "switch"
    if node_type in HOST_TYPES:
        return "host"
    if node_type in CLOUD_TYPES:
        return "cloud"
    return "other"


def _icon(painter: QPainter, kind: str, box: QRectF, colour: QColor) -> None:
    """A simple vector icon in ``box`` (pen and brush set by the caller)."""
    c = box.center()
    if kind == "router":
        painter.drawEllipse(box)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            tip = c + QPointF(dx, dy) * (box.width() * 0.32)
            painter.drawLine(c + QPointF(dx, dy) * (box.width() * 0.1), tip)
    elif kind == "switch":
        painter.drawRoundedRect(box.adjusted(0, 5, 0, -5), 4, 4)
        for dy, direction in ((-4, 1), (4, -1)):
            y = c.y() + dy
            painter.drawLine(QPointF(box.left() + 6, y), QPointF(box.right() - 6, y))
            tip_x = box.right() - 6 if direction > 0 else box.left() + 6
            painter.drawLine(QPointF(tip_x, y), QPointF(tip_x - 4 * direction, y - 3))
    elif kind == "host":
        screen = QRectF(box.left() + 2, box.top() + 3, box.width() - 4, box.height() * 0.6)
        painter.drawRoundedRect(screen, 2, 2)
        painter.drawLine(QPointF(c.x(), screen.bottom()), QPointF(c.x(), box.bottom() - 4))
        painter.drawLine(
            QPointF(box.left() + 7, box.bottom() - 3), QPointF(box.right() - 7, box.bottom() - 3)
        )
    elif kind == "cloud":
        path = QPainterPath()
        path.addEllipse(QRectF(box.left(), c.y() - 4, box.width() * 0.5, box.height() * 0.45))
        path.addEllipse(QRectF(c.x() - 6, box.top() + 4, box.width() * 0.5, box.height() * 0.5))
        path.addEllipse(QRectF(c.x(), c.y() - 4, box.width() * 0.5, box.height() * 0.45))
        painter.drawPath(path.simplified())
    else:
        painter.drawRoundedRect(box.adjusted(2, 2, -2, -2), 5, 5)
    _ = colour


def _node_tip(node: PictureNode, links: Iterable[PictureLink] = ()) -> str:
    """A node's name, type, addresses and status, then each of its links from its side
    (``GigabitEthernet0/0 – R2 GigabitEthernet0/1``)."""
    parts = [node.name, node.node_type, *node.addresses]
    if node.status:
        parts.append(node.status)
    ends = [
        f"{port} – {peer} {peer_port}"
        for link in links
        for name, port, peer, peer_port in (
            (link.a, link.a_port, link.b, link.b_port),
            (link.b, link.b_port, link.a, link.a_port),
        )
        if name == node.name
    ]
    parts += ends[:MAX_TIP_LINKS]
    if len(ends) > MAX_TIP_LINKS:
        parts.append("…")
    return "\n".join(parts)


def _link_tip(link: PictureLink) -> str:
    facts = [link.subnet] if link.subnet else []
    if link.suspended:
        facts.append(QCoreApplication.translate("LabDrawing", "suspended"))
    if link.filtered:
        facts.append(QCoreApplication.translate("LabDrawing", "filtered"))
    return "\n".join([f"{link.a} {link.a_port} – {link.b} {link.b_port}", *facts])


def plain_tooltip(text: str) -> str:
    """``text`` as a tooltip shows it, character for character: Qt renders a tooltip that
    looks like HTML as HTML, and a node may be named ``<img src=...>``."""
    return "<p style='white-space:pre'>" + escape(text).replace("\n", "<br>") + "</p>"


def _distance(point: QPointF, a: QPointF, b: QPointF) -> float:
    """How far ``point`` is from the segment a-b."""
    dx, dy = b.x() - a.x(), b.y() - a.y()
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((point.x() - a.x()) * dx + (point.y() - a.y()) * dy) / length2
    t = max(0.0, min(1.0, t))
    return math.hypot(point.x() - (a.x() + t * dx), point.y() - (a.y() + t * dy))


def describe(picture: LabPicture) -> str:
    """The picture in words, for screen readers and the card's text form: the counts, what a
    plan adds and removes, then every node (type, status) and every link (ports, subnet,
    suspended, filtered)."""
    if not picture.nodes:
        return QCoreApplication.translate("LabDrawing", "The lab is empty.")
    parts = [
        QCoreApplication.translate("LabDrawing", "%1 nodes, %2 links.")
        .replace("%1", str(len(picture.nodes)))
        .replace("%2", str(len(picture.links)))
    ]
    for state, template in (
        ("new", QCoreApplication.translate("LabDrawing", "New: %1.")),
        ("removed", QCoreApplication.translate("LabDrawing", "Removed: %1.")),
    ):
        names = [n.name for n in picture.nodes if n.state == state]
        if names:
            parts.append(template.replace("%1", ", ".join(names[:20])))
    links = [f"{x.a} {x.a_port} – {x.b} {x.b_port}" for x in picture.links if x.state == "new"]
    if links:
        parts.append(
            QCoreApplication.translate("LabDrawing", "New links: %1.").replace(
                "%1", "; ".join(links[:20])
            )
        )
    nodes = [
        f"{n.name} ({', '.join(f for f in (n.node_type, n.status) if f)})"
        for n in picture.nodes[:60]
    ]
    parts.append(
        QCoreApplication.translate("LabDrawing", "Nodes: %1.").replace("%1", "; ".join(nodes))
    )
    if picture.links:
        lines = [_link_tip(link).replace("\n", ", ") for link in picture.links[:60]]
        parts.append(
            QCoreApplication.translate("LabDrawing", "Links: %1.").replace("%1", "; ".join(lines))
        )
    return " ".join(parts)
