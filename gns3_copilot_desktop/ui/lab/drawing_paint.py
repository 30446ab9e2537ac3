"""Painting a lab drawing: links (dashed when suspended, a mark for packet filters), labels,
node icons with their status dots, and the legend of the colours used."""

from __future__ import annotations

from PyQt6.QtCore import QCoreApplication, QPointF, QRectF, Qt
from PyQt6.QtGui import (
    QColor,
    QFontMetrics,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
)

from gns3_copilot_desktop.core.lab_plan.picture import PictureLink
from gns3_copilot_desktop.ui.lab.drawing_labels import DrawingLabels
from gns3_copilot_desktop.ui.lab.drawing_parts import (
    ICON,
    LEGEND_H,
    MARGIN,
    _dot_centre,
    _icon,
    _Label,
    _Placed,
    drawing_palette,
    kind_of,
    state_colour,
    status_colour,
)
from gns3_copilot_desktop.ui.theme import colors


class DrawingPaint(DrawingLabels):
    """The painting of `LabDrawing`."""

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
