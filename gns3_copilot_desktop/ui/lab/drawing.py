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

from PyQt6.QtCore import QCoreApplication, QPointF, QRectF, QSize, Qt, pyqtSignal
from PyQt6.QtGui import (
    QFont,
    QFontMetrics,
    QMouseEvent,
)
from PyQt6.QtWidgets import QSizePolicy, QToolTip, QWidget

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink
from gns3_copilot_desktop.ui.lab.drawing_paint import DrawingPaint
from gns3_copilot_desktop.ui.lab.drawing_parts import (
    ICON,
    LABEL_ROWS,
    LEGEND_H,
    MARGIN,
    SYMBOL,
    _distance,
    _Label,
    _link_tip,
    _node_tip,
    _Placed,
    _vertical,
    describe,
    plain_tooltip,
)


class LabDrawing(DrawingPaint):
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
