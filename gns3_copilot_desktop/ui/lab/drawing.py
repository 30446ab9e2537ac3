"""A lab drawn by the app: nodes where GNS3 puts them, links with their ports and subnets.

One widget for a plan (new in green, removed in red and dashed, unchanged greyed) and for the lab
as it runs (a status dot per node, suspended links dashed). The GNS3 coordinates are scaled to the
widget's width (never enlarged), the icons and labels keep their size so the drawing stays readable
in a 360 px dock; the height follows the width. Colours come from the palette (light, dark, the
GNS3 GUI's charcoal) except the state hues, chosen readable on either background.

Labels are laid out before anything is painted: names under their icons, then each port along its
link next to its node (interface names abbreviated, ``GigabitEthernet0/1`` as ``Gi0/1``), then each
subnet mid-link. A label goes on the first of a few spots where it hides no icon and no other label
and stays inside the widget; with no such spot it is left out, never drawn over something (the
tooltips and the tables under the drawing keep every full name).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape

from PyQt6.QtCore import QCoreApplication, QPointF, QRectF, QSize, Qt, pyqtSignal
from PyQt6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
)
from PyQt6.QtWidgets import QApplication, QSizePolicy, QToolTip, QWidget

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


class LabDrawing(QWidget):
    """Draws a `LabPicture`; a click on a node emits its name."""

    node_clicked = pyqtSignal(str)

    def __init__(self, picture: LabPicture | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._picture = LabPicture(nodes=(), links=())
        self._placed: dict[str, _Placed] = {}
        self._labels: tuple[tuple[int, int, str, float], list[_Label]] | None = None
        self._pressed: str | None = None
        self.drawn_labels: list[tuple[str, QRectF, str]] = []
        """What the last paint wrote: (name / address / port / subnet, where, text)."""
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)
        self.setMinimumWidth(200)
        self.setMouseTracking(True)
        self.setAccessibleName(QCoreApplication.translate("LabDrawing", "Lab drawing"))
        if picture is not None:
            self.set_picture(picture)

    # --- data ------------------------------------------------------------------------------

    @property
    def picture(self) -> LabPicture:
        return self._picture

    def set_picture(self, picture: LabPicture) -> None:
        """Show ``picture`` (repaints; the height may change)."""
        self._picture = picture
        self.setAccessibleDescription(describe(picture))
        self.setToolTip("")
        self._placed = {}
        self._labels = None
        self.updateGeometry()
        self.update()

    # --- geometry --------------------------------------------------------------------------

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        scale, _, (height, _) = self._layout(width)
        rows = len(self._legend_rows(width))
        return (
            int(height * _vertical(scale))
            + 2 * MARGIN
            + ICON
            + self._label_height()
            + rows * LEGEND_H
            + (4 if rows else 0)
        )

    def sizeHint(self) -> QSize:
        return QSize(480, self.heightForWidth(480))

    def _label_height(self) -> int:
        return QFontMetrics(self._small_font()).lineSpacing() * LABEL_ROWS + 4

    def _small_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(font.pointSizeF() * 0.85, 7.0))
        return font

    def _layout(self, width: int) -> tuple[float, QPointF, tuple[float, float]]:
        """(scale, scene origin, (scene height, scene width)) for a widget ``width`` wide."""
        nodes = self._picture.nodes
        if not nodes:
            return 1.0, QPointF(0, 0), (0.0, 0.0)
        xs = [n.x + SYMBOL / 2 for n in nodes]
        ys = [n.y + SYMBOL / 2 for n in nodes]
        span_w, span_h = max(xs) - min(xs), max(ys) - min(ys)
        room = max(width - 2 * MARGIN - ICON - 2 * self._label_half_width(), 10)
        scale = min(1.0, room / span_w) if span_w > 0 else 1.0
        return scale, QPointF(min(xs), min(ys)), (span_h, span_w)

    def _label_half_width(self) -> int:
        return QFontMetrics(self._small_font()).horizontalAdvance("M" * 5)

    def node_centre(self, name: str) -> QPointF | None:
        """Where a node's icon is drawn, in widget coordinates (None: not in the picture)."""
        self._place()
        placed = self._placed.get(name)
        return placed.centre if placed else None

    def _place(self) -> None:
        scale, origin, (_, span_w) = self._layout(self.width())
        drawn_w = span_w * scale
        left = (self.width() - drawn_w) / 2
        top = MARGIN + ICON / 2
        self._placed = {
            n.name: _Placed(
                n,
                QPointF(
                    left + (n.x + SYMBOL / 2 - origin.x()) * scale,
                    top + (n.y + SYMBOL / 2 - origin.y()) * _vertical(scale),
                ),
            )
            for n in self._picture.nodes
        }

    def icon_box(self, name: str) -> QRectF | None:
        """The square a node's icon is drawn in (None: not in the picture)."""
        centre = self.node_centre(name)
        if centre is None:
            return None
        return QRectF(centre.x() - ICON / 2, centre.y() - ICON / 2, ICON, ICON)

    def node_labels(self, placed: _Placed) -> list[tuple[QRectF, str]]:
        """Where a node's name (and first address) go under its icon, and the text shown
        there (elided to the room its row leaves; the tooltip has the whole name)."""
        metrics = QFontMetrics(self._small_font())
        room = int(min(self._label_half_width() * 2 + ICON, self._label_room(placed)))
        top = placed.centre.y() + ICON / 2 + 2
        labels = []
        for row, text in enumerate([placed.node.name, *placed.node.addresses[:1]]):
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
            width = min(metrics.horizontalAdvance(shown) + 4, room)
            rect = QRectF(
                placed.centre.x() - width / 2,
                top + row * metrics.lineSpacing(),
                width,
                metrics.lineSpacing(),
            )
            labels.append((rect, shown))
        return labels

    def node_at(self, point: QPointF) -> str | None:
        """The node whose icon (or name under it) is at ``point``; the one drawn last (on top)
        when several are."""
        self._place()
        for name, placed in reversed(self._placed.items()):
            box = QRectF(placed.centre.x() - ICON / 2, placed.centre.y() - ICON / 2, ICON, ICON)
            if box.adjusted(-3, -3, 3, 3).contains(point):
                return name
        for label in reversed(self.label_layout()):
            if label.kind == "name" and label.rect.contains(point):
                return label.owner
        return None

    def link_at(self, point: QPointF) -> PictureLink | None:
        """The link whose line passes within 4 px of ``point`` (None off every line)."""
        self._place()
        for link in reversed(self._picture.links):
            a, b = self._placed.get(link.a), self._placed.get(link.b)
            if a is not None and b is not None and _distance(point, a.centre, b.centre) <= 4:
                return link
        return None

    def tooltip_at(self, point: QPointF) -> str:
        """The tooltip at ``point`` as plain text: a node's whole name, facts and links, or a
        link's ends; empty where there is nothing. Every full port name is in one of them, also
        the ones the drawing abbreviates or has no room for."""
        name = self.node_at(point)
        if name is not None:
            return _node_tip(self._placed[name].node, self._picture.links)
        link = self.link_at(point)
        return _link_tip(link) if link is not None else ""

    # --- labels ----------------------------------------------------------------------------

    def label_layout(self) -> list[_Label]:
        """Every label at the widget's current size, where it goes and the text it shows; none
        hides an icon or another label and all lie inside the widget (above the legend)."""
        font = self._small_font()
        key = (self.width(), self.height(), font.family(), font.pointSizeF())
        if self._labels is not None and self._labels[0] == key:
            return self._labels[1]
        self._place()
        legend = len(self._legend_rows(self.width())) * LEGEND_H
        lines = [
            (a.centre, b.centre)
            for a, b in (
                (self._placed.get(link.a), self._placed.get(link.b)) for link in self._picture.links
            )
            if a is not None and b is not None
        ]
        room = _Room(
            QRectF(0, 0, self.width(), max(self.height() - legend, 0)),
            [_box(p.centre) for p in self._placed.values()]
            # a status dot stands out of its icon's corner
            + [
                QRectF(_box(p.centre).right() - 7, _box(p.centre).top() - 3, 10, 10)
                for p in self._placed.values()
                if p.node.status is not None
            ],
            lines,
        )
        ends: dict[int, tuple[_Placed, _Placed, int]] = {}
        for index, link in enumerate(self._picture.links):
            a, b = self._placed.get(link.a), self._placed.get(link.b)
            if a is not None and b is not None:
                ends[index] = (a, b, len(ends))
        names = {p.node.name: self._name_label_layout(p, room) for p in self._placed.values()}
        labels = [name for name in names.values() if name is not None]
        for placed in self._placed.values():
            # one of the node's addresses (the tables list them all): it gives way to a port
            address = self._address_label_layout(placed, names[placed.node.name], room)
            if address is not None:
                room.yielding.append(address.rect)
                labels.append(address)
        for link in self._picture.links:
            middle = self._middle(link)
            if link.filtered and middle is not None:
                room.taken.append(QRectF(middle.x() - 7, middle.y() - 7, 14, 14))
        # the plan's news first: when room runs out, an unchanged link's labels go
        order = sorted(
            range(len(self._picture.links)),
            key=lambda i: _STATE_ORDER.get(self._picture.links[i].state, 3),
        )
        for index in order:
            if index in ends:
                labels += self._port_label_layout(self._picture.links[index], ends[index], room)
        subnets: set[str] = set()
        for index in order:
            if index in ends:
                label = self._subnet_label_layout(
                    self._picture.links[index], ends[index], room, subnets
                )
                labels += [label] if label is not None else []
        labels = [x for x in labels if not any(x.rect is r for r in room.pushed_aside)]
        self._labels = (key, labels)
        return labels

    def _middle(self, link: PictureLink) -> QPointF | None:
        a, b = self._placed.get(link.a), self._placed.get(link.b)
        return (a.centre + b.centre) / 2 if a is not None and b is not None else None

    def _name_label_layout(self, placed: _Placed, room: _Room) -> _Label | None:
        """The name under the icon, or above it when that is taken; None when neither is free."""
        name_rect, name = self.node_labels(placed)[0]
        above = QRectF(name_rect)
        above.moveBottom(placed.centre.y() - ICON / 2 - GAP - 1)
        for rect in (name_rect, above):
            if room.fits(rect):
                room.taken.append(rect)
                return _Label("name", rect, name, placed.node.state, placed.node.name)
        return None

    def _address_label_layout(
        self, placed: _Placed, name: _Label | None, room: _Room
    ) -> _Label | None:
        """The first address under a name that is under its icon, if that row is free."""
        rows = self.node_labels(placed)
        if name is None or len(rows) < 2 or name.rect != rows[0][0]:
            return None
        rect, text = rows[1]
        if not room.fits(rect, beside=name.rect):
            return None
        room.taken.append(rect)
        return _Label("address", rect, text, placed.node.state, placed.node.name)

    def _text_size(self, text: str, width: int) -> tuple[str, QSize]:
        metrics = QFontMetrics(self._small_font())
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
        return shown, QSize(metrics.horizontalAdvance(shown) + 6, metrics.height() + 2)

    def _port_label_layout(
        self, link: PictureLink, ends: tuple[_Placed, _Placed, int], room: _Room
    ) -> list[_Label]:
        """Each end's port on its link, right past its node's icon or a little further out: on
        the line, else beside it; always in the end's own half of the link."""
        a, b, line = ends
        labels = []
        for port, near, far in (
            (link.a_port, a.centre, b.centre),
            (link.b_port, b.centre, a.centre),
        ):
            length = math.hypot(far.x() - near.x(), far.y() - near.y())
            if not port.strip() or length < 1:
                continue
            shown, size = self._text_size(short_port(port), PORT_WIDTH)
            unit = (far - near) / length
            across = QPointF(-unit.y(), unit.x())
            # how far along the line the label's centre must be for its box to clear the icon
            clear = min(
                (ICON / 2 + GAP + 1 + extent / 2) / abs(component)
                for extent, component in ((size.width(), unit.x()), (size.height(), unit.y()))
                if abs(component) > 1e-6
            )
            beside = _extent(size, across) / 2 + 2
            if _away_from_others(near, across, room.lines, line) < 0:
                beside = -beside
            # on the line reads best (it cannot be taken for a neighbour's port); beside it next,
            # first on the side away from the node's other links
            spots = [
                (near + unit * along + across * side, side == 0)
                for side in (0.0, beside, -beside)
                for along in (clear + step * size.height() * 0.6 for step in range(5))
                if along < length / 2 - 2
            ]
            rect = room.first_free(size, spots, line, pushing=True)
            if rect is not None:
                labels.append(_Label("port", rect, shown, link.state))
        return labels

    def _subnet_label_layout(
        self, link: PictureLink, ends: tuple[_Placed, _Placed, int], room: _Room, drawn: set[str]
    ) -> _Label | None:
        """A link's subnet near the middle of its line (on it, beside it, or shifted along);
        once per subnet (added to ``drawn``), as a LAN's links share it."""
        subnet = link.subnet.split()[-1] if link.subnet.strip() else ""
        if not subnet or subnet in drawn:
            return None
        a, b, line = ends
        length = math.hypot(b.centre.x() - a.centre.x(), b.centre.y() - a.centre.y())
        if length < 1:
            return None
        shown, size = self._text_size(subnet, SUBNET_WIDTH)
        unit = (b.centre - a.centre) / length
        across = QPointF(-unit.y(), unit.x())
        beside = _extent(size, across) / 2 + 2
        middle = (a.centre + b.centre) / 2
        spots = [
            (middle + unit * along + across * side, side == 0)
            for along in (0.0, 14.0, -14.0, 28.0, -28.0)
            if abs(along) < length / 2 - ICON / 2
            for side in (0.0, beside, -beside)
        ]
        rect = room.first_free(size, spots, line)
        if rect is None:
            return None
        drawn.add(subnet)
        return _Label("subnet", rect, shown, link.state)

    # --- events ----------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent | None) -> None:
        if event is not None and event.button() == Qt.MouseButton.LeftButton:
            self._pressed = self.node_at(event.position())
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent | None) -> None:
        if event is not None and event.button() == Qt.MouseButton.LeftButton:
            name = self.node_at(event.position())
            pressed, self._pressed = self._pressed, None
            if name is not None and name == pressed:  # a press on one node, release on another
                self.node_clicked.emit(name)
                return
        super().mouseReleaseEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent | None) -> None:
        if event is None:
            return
        point = event.position()
        self.setCursor(
            Qt.CursorShape.PointingHandCursor
            if self.node_at(point) is not None
            else Qt.CursorShape.ArrowCursor
        )
        tip = self.tooltip_at(point)
        if tip:
            QToolTip.showText(event.globalPosition().toPoint(), plain_tooltip(tip), self)
        else:
            QToolTip.hideText()

    # --- painting --------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = drawing_palette(self.palette())
        self._place()
        self.drawn_labels = []
        if not self._picture.nodes:
            painter.setPen(QColor(colors(palette).muted))
            painter.drawText(
                self.rect(),
                Qt.AlignmentFlag.AlignCenter,
                QCoreApplication.translate("LabDrawing", "The lab is empty."),
            )
            painter.end()
            return
        labels = self.label_layout()
        for link in self._picture.links:
            self._draw_link(painter, link, palette)
        for link in self._picture.links:  # after every line: no line crosses a mark or label
            self._draw_filter_mark(painter, link, palette)
        painter.setFont(self._small_font())
        for label in labels:
            if label.kind in ("port", "subnet"):
                self._draw_label(painter, label, palette)
        for placed in self._placed.values():
            self._draw_node(painter, placed, palette)
        for label in labels:
            if label.kind in ("name", "address"):
                self._draw_label(painter, label, palette)
        self.drawn_labels = [(label.kind, QRectF(label.rect), label.text) for label in labels]
        self._draw_legend(painter, palette)
        painter.end()

    def _draw_link(self, painter: QPainter, link: PictureLink, palette: QPalette) -> None:
        a, b = self._placed.get(link.a), self._placed.get(link.b)
        if a is None or b is None:
            return
        colour = self._link_colour(link, palette)
        pen = QPen(colour, 3 if link.state == "new" else 2)
        if link.state == "removed" or link.suspended:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(a.centre, b.centre)

    def _link_colour(self, link: PictureLink, palette: QPalette) -> QColor:
        colour = state_colour(link.state, palette)
        if link.state == "unchanged":
            colour = QColor(palette.color(QPalette.ColorRole.Text))
            colour.setAlphaF(0.55)
        return colour

    def _draw_filter_mark(self, painter: QPainter, link: PictureLink, palette: QPalette) -> None:
        """An amber diamond mid-link on a link with a packet filter."""
        middle = self._middle(link)
        if not link.filtered or middle is None:
            return
        painter.setPen(QPen(state_colour("changed", palette), 2))
        painter.setBrush(state_colour("changed", palette))
        path = QPainterPath()
        path.moveTo(middle + QPointF(0, -6))
        path.lineTo(middle + QPointF(6, 0))
        path.lineTo(middle + QPointF(0, 6))
        path.lineTo(middle + QPointF(-6, 0))
        path.closeSubpath()
        painter.drawPath(path)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _draw_label(self, painter: QPainter, label: _Label, palette: QPalette) -> None:
        """A label on a patch of the background, so the line it sits on does not strike it
        through; in its item's hue when the item is new, removed or changed."""
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(label.rect, 3, 3)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        colour = QColor(palette.color(QPalette.ColorRole.Text))
        if label.kind == "address":
            colour = QColor(colors(palette).muted)
        elif label.kind == "name":
            if label.state in ("new", "removed"):
                colour = state_colour(label.state, palette)
        elif label.state != "unchanged":
            colour = state_colour(label.state, palette)
        painter.setPen(colour)
        painter.drawText(label.rect, Qt.AlignmentFlag.AlignCenter, label.text)

    def _draw_node(self, painter: QPainter, placed: _Placed, palette: QPalette) -> None:
        node, c = placed.node, placed.centre
        colour = state_colour(node.state, palette)
        if node.state == "unchanged":
            colour = QColor(palette.color(QPalette.ColorRole.Text))
            colour.setAlphaF(0.6 if node.status is None else 0.9)
        box = QRectF(c.x() - ICON / 2, c.y() - ICON / 2, ICON, ICON)
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        pen = QPen(colour, 2.5 if node.state in ("new", "removed", "changed") else 1.6)
        if node.state == "removed":
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        _icon(painter, kind_of(node.node_type), box, colour)
        if node.status is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(status_colour(node.status, palette))
            painter.drawEllipse(_dot_centre(box), 5, 5)
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _label_room(self, placed: _Placed) -> float:
        """How wide a node's labels may be without running into a neighbour's on its row."""
        row = self._label_height() + ICON
        gaps = [
            abs(other.centre.x() - placed.centre.x())
            for other in self._placed.values()
            if other is not placed
            and abs(other.centre.y() - placed.centre.y()) < row
            and other.centre != placed.centre
        ]
        return max(min(gaps, default=1e9) - 6, ICON + 8)

    def legend_entries(self) -> list[tuple[str, str]]:
        """(key, text) of what the picture uses: plan states, node statuses, suspended and
        filtered links."""
        states = {n.state for n in self._picture.nodes} | {
            link.state for link in self._picture.links
        }
        entries: list[tuple[str, str]] = []
        for state, text in (
            ("new", QCoreApplication.translate("LabDrawing", "new")),
            ("removed", QCoreApplication.translate("LabDrawing", "removed")),
            ("changed", QCoreApplication.translate("LabDrawing", "changed")),
        ):
            if state in states:
                entries.append((state, text))
        if entries and "unchanged" in states:
            entries.append(("unchanged", QCoreApplication.translate("LabDrawing", "unchanged")))
        statuses = {n.status for n in self._picture.nodes if n.status}
        for status, text in (
            ("started", QCoreApplication.translate("LabDrawing", "running")),
            ("stopped", QCoreApplication.translate("LabDrawing", "stopped")),
            ("suspended", QCoreApplication.translate("LabDrawing", "suspended")),
        ):
            if status in statuses:
                entries.append((status, text))
        if any(link.suspended for link in self._picture.links):
            entries.append(
                ("suspended link", QCoreApplication.translate("LabDrawing", "suspended link"))
            )
        if any(link.filtered for link in self._picture.links):
            entries.append(
                ("filtered link", QCoreApplication.translate("LabDrawing", "filtered link"))
            )
        return entries

    def _legend_rows(self, width: int) -> list[list[tuple[str, str, float]]]:
        """The legend's entries (key, text, x) in rows that fit ``width``."""
        metrics = QFontMetrics(self._small_font())
        rows: list[list[tuple[str, str, float]]] = []
        x = float(MARGIN)
        for key, text in self.legend_entries():
            advance = 20 + metrics.horizontalAdvance(text)
            if not rows or (x > MARGIN and x + advance > width - MARGIN):
                rows.append([])
                x = float(MARGIN)
            rows[-1].append((key, text, x))
            x += advance + 12
        return rows

    def legend_swatches(self) -> dict[str, QRectF]:
        """Where each legend entry's colour square (or line) is drawn, by key."""
        rows = self._legend_rows(self.width())
        top = float(self.height() - len(rows) * LEGEND_H)
        return {
            key: QRectF(x, top + index * LEGEND_H + 3, 16, 10).adjusted(3, 0, -3, 0)
            for index, row in enumerate(rows)
            for key, _, x in row
        }

    def status_dot(self, name: str) -> QPointF | None:
        """The centre of a node's status dot (None: not in the picture)."""
        box = self.icon_box(name)
        return None if box is None else _dot_centre(box)

    def _draw_legend(self, painter: QPainter, palette: QPalette) -> None:
        rows = self._legend_rows(self.width())
        if not rows:
            return
        font = self._small_font()
        painter.setFont(font)
        metrics = QFontMetrics(font)
        top = float(self.height() - len(rows) * LEGEND_H)
        muted = QColor(colors(palette).muted)
        for index, row in enumerate(rows):
            y = top + index * LEGEND_H
            middle = y + 8
            for key, text, x in row:
                swatch = QRectF(x, y + 3, 16, 10)
                if key in ("suspended link", "filtered link"):
                    pen = QPen(muted, 2)
                    if key == "suspended link":
                        pen.setStyle(Qt.PenStyle.DashLine)
                    painter.setPen(pen)
                    painter.drawLine(QPointF(x, middle), QPointF(x + 16, middle))
                    if key == "filtered link":
                        painter.setPen(Qt.PenStyle.NoPen)
                        painter.setBrush(state_colour("changed", palette))
                        painter.drawPolygon(
                            QPolygonF(
                                [
                                    QPointF(x + 8, middle - 5),
                                    QPointF(x + 13, middle),
                                    QPointF(x + 8, middle + 5),
                                    QPointF(x + 3, middle),
                                ]
                            )
                        )
                else:
                    colour = (
                        status_colour(key, palette)
                        if key in ("started", "stopped", "suspended")
                        else muted
                        if key == "unchanged"
                        else state_colour(key, palette)
                    )
                    painter.setPen(Qt.PenStyle.NoPen)
                    painter.setBrush(colour)
                    painter.drawRoundedRect(swatch.adjusted(3, 0, -3, 0), 2, 2)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(palette.color(QPalette.ColorRole.Text))
                painter.drawText(QPointF(x + 20, y + 3 + metrics.ascent() - 1), text)


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
