"""A lab drawn by the app: nodes where GNS3 puts them, links with their ports and subnets.

One widget for a plan (new in green, removed in red and dashed, unchanged greyed) and for the lab
as it runs (a status dot per node, suspended links dashed). The GNS3 coordinates are scaled to the
widget's width (never enlarged), the icons and labels keep their size so the drawing stays readable
in a 360 px dock; the height follows the width. Colours come from the palette (light, dark, the
GNS3 GUI's charcoal) except the state hues, chosen readable on either background.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
)
from PyQt6.QtWidgets import QSizePolicy, QToolTip, QWidget

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.theme import colors, is_dark

SYMBOL = 50
"""GNS3 places a node by the top-left corner of a symbol about this many scene units wide."""
ICON = 30
MARGIN = 16
LABEL_ROWS = 2  # the name and one address under an icon
LEGEND_H = 22

ROUTER_TYPES = frozenset({"dynamips", "iou"})
SWITCH_TYPES = frozenset({"ethernet_switch", "ethernet_hub", "frame_relay_switch", "atm_switch"})
HOST_TYPES = frozenset({"vpcs", "docker", "traceng"})
CLOUD_TYPES = frozenset({"cloud", "nat"})


def state_colour(state: str, palette: QPalette) -> QColor:
    """The hue of an item's state: new green, removed red, changed amber, unchanged muted."""
    dark = is_dark(palette)
    if state == "new":
        return QColor("#5cc06a" if dark else "#1b7a2b")
    if state == "removed":
        return QColor("#ff7b72" if dark else "#c62828")
    if state == "changed":
        return QColor("#e3b341" if dark else "#8a5a00")
    return QColor(colors(palette).muted)


def status_colour(status: str, palette: QPalette) -> QColor:
    """A running node green, a stopped one red, a suspended one amber."""
    return state_colour(
        {"started": "new", "stopped": "removed", "suspended": "changed"}.get(status, "unchanged"),
        palette,
    )


@dataclass(frozen=True)
class _Placed:
    node: PictureNode
    centre: QPointF


class LabDrawing(QWidget):
    """Draws a `LabPicture`; a click on a node emits its name."""

    node_clicked = pyqtSignal(str)

    def __init__(self, picture: LabPicture | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._picture = LabPicture(nodes=(), links=())
        self._placed: dict[str, _Placed] = {}
        self._subnets_drawn: set[str] = set()
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
        self.updateGeometry()
        self.update()

    # --- geometry --------------------------------------------------------------------------

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        scale, _, (height, _) = self._layout(width)
        return int(height * _vertical(scale)) + 2 * MARGIN + ICON + self._label_height() + LEGEND_H

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

    def node_at(self, point: QPointF) -> str | None:
        """The node whose icon is under ``point``."""
        self._place()
        for name, placed in self._placed.items():
            if (placed.centre - point).manhattanLength() <= ICON * 0.75:
                return name
        return None

    # --- events ----------------------------------------------------------------------------

    def mouseReleaseEvent(self, event: QMouseEvent | None) -> None:
        if event is not None and event.button() == Qt.MouseButton.LeftButton:
            name = self.node_at(event.position())
            if name is not None:
                self.node_clicked.emit(name)
                return
        super().mouseReleaseEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent | None) -> None:
        if event is None:
            return
        name = self.node_at(event.position())
        self.setCursor(
            Qt.CursorShape.PointingHandCursor if name is not None else Qt.CursorShape.ArrowCursor
        )
        if name is not None:
            placed = self._placed[name]
            QToolTip.showText(event.globalPosition().toPoint(), _node_tip(placed.node), self)
        else:
            QToolTip.hideText()

    # --- painting --------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent | None) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        self._place()
        if not self._picture.nodes:
            painter.setPen(QColor(colors(palette).muted))
            painter.drawText(
                self.rect(),
                Qt.AlignmentFlag.AlignCenter,
                QCoreApplication.translate("LabDrawing", "The lab is empty."),
            )
            painter.end()
            return
        self._subnets_drawn = set()
        for link in self._picture.links:
            self._draw_link(painter, link, palette)
        for placed in self._placed.values():
            self._draw_node(painter, placed, palette)
        self._draw_legend(painter, palette)
        painter.end()

    def _draw_link(self, painter: QPainter, link: PictureLink, palette: QPalette) -> None:
        a, b = self._placed.get(link.a), self._placed.get(link.b)
        if a is None or b is None:
            return
        colour = state_colour(link.state, palette)
        if link.state == "unchanged":
            colour = QColor(palette.color(QPalette.ColorRole.Text))
            colour.setAlphaF(0.55)
        pen = QPen(colour, 3 if link.state == "new" else 2)
        if link.state == "removed" or link.suspended:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawLine(a.centre, b.centre)
        painter.setFont(self._small_font())
        length = math.hypot(b.centre.x() - a.centre.x(), b.centre.y() - a.centre.y())
        for port, near, far in (
            (link.a_port, a.centre, b.centre),
            (link.b_port, b.centre, a.centre),
        ):
            unit = (far - near) / length if length else QPointF(0, 0)
            # clear of the icon, and of the name under it when the link leaves downwards
            clear = ICON / 2 + 26 + (self._label_height() if unit.y() > 0.6 else 0)
            if length > 2 * clear + 12:  # else the table and the tooltip have the ports
                self._badge(painter, near + unit * clear, port, palette, colour)
        middle = (a.centre + b.centre) / 2
        if link.filtered:
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
        subnet = link.subnet.split()[-1] if link.subnet.strip() else ""
        if subnet and subnet not in self._subnets_drawn and length > ICON * 2.5:
            self._subnets_drawn.add(subnet)  # a LAN's links share it: once is enough
            self._badge(painter, middle, subnet, palette, colour)

    def _badge(
        self, painter: QPainter, centre: QPointF, text: str, palette: QPalette, colour: QColor
    ) -> None:
        metrics = QFontMetrics(self._small_font())
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, 110)
        rect = QRectF(metrics.boundingRect(shown)).adjusted(-3, -1, 3, 1)
        rect.moveCenter(centre)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        painter.drawRoundedRect(rect, 3, 3)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        text_colour = QColor(palette.color(QPalette.ColorRole.Text))
        if colour.alphaF() == 1.0 and colour != QColor(colors(palette).muted):
            text_colour = colour
        painter.setPen(text_colour)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, shown)

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
            painter.drawEllipse(QPointF(box.right() - 2, box.top() + 2), 5, 5)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        font = self._small_font()
        painter.setFont(font)
        metrics = QFontMetrics(font)
        width = int(min(self._label_half_width() * 2 + ICON, self._label_room(placed)))
        lines = [node.name, *node.addresses[:1]]
        for row, text in enumerate(lines):
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)
            rect = QRectF(
                c.x() - width / 2,
                box.bottom() + 2 + row * metrics.lineSpacing(),
                width,
                metrics.lineSpacing(),
            )
            text_colour = QColor(palette.color(QPalette.ColorRole.Text))
            if row == 0 and node.state in ("new", "removed"):
                text_colour = colour
            painter.setPen(text_colour if row == 0 else QColor(colors(palette).muted))
            painter.drawText(rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, shown)

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

    def _draw_legend(self, painter: QPainter, palette: QPalette) -> None:
        states = {n.state for n in self._picture.nodes} | {
            link.state for link in self._picture.links
        }
        entries: list[tuple[str, QColor]] = []
        for state, text in (
            ("new", QCoreApplication.translate("LabDrawing", "new")),
            ("removed", QCoreApplication.translate("LabDrawing", "removed")),
            ("changed", QCoreApplication.translate("LabDrawing", "changed")),
        ):
            if state in states:
                entries.append((text, state_colour(state, palette)))
        if entries and "unchanged" in states:
            entries.append(
                (
                    QCoreApplication.translate("LabDrawing", "unchanged"),
                    QColor(colors(palette).muted),
                )
            )
        statuses = {n.status for n in self._picture.nodes if n.status}
        for status, text in (
            ("started", QCoreApplication.translate("LabDrawing", "running")),
            ("stopped", QCoreApplication.translate("LabDrawing", "stopped")),
            ("suspended", QCoreApplication.translate("LabDrawing", "suspended")),
        ):
            if status in statuses:
                entries.append((text, status_colour(status, palette)))
        if not entries:
            return
        font = self._small_font()
        painter.setFont(font)
        metrics = QFontMetrics(font)
        x, y = float(MARGIN), float(self.height() - LEGEND_H + 4)
        for text, colour in entries:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRoundedRect(QRectF(x, y + 3, 10, 10), 2, 2)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.setPen(palette.color(QPalette.ColorRole.Text))
            painter.drawText(QPointF(x + 14, y + 3 + metrics.ascent() - 1), text)
            x += 14 + metrics.horizontalAdvance(text) + 12


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


def _node_tip(node: PictureNode) -> str:
    parts = [node.name, node.node_type, *node.addresses]
    if node.status:
        parts.append(node.status)
    return "\n".join(parts)


def describe(picture: LabPicture) -> str:
    """The picture in words, for screen readers and the card's text form."""
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
    return " ".join(parts)
