"""Where a lab drawing's labels go, decided before anything is painted: names under their icons,
ports along their links next to their nodes, subnets mid-link, each on the first free spot or left
out (never drawn over an icon or another label)."""

from __future__ import annotations

import math

from PyQt6.QtCore import QPointF, QRectF, QSize, Qt
from PyQt6.QtGui import QFont, QFontMetrics
from PyQt6.QtWidgets import QWidget

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink
from gns3_copilot_desktop.ui.lab.drawing_parts import (
    _STATE_ORDER,
    GAP,
    ICON,
    LEGEND_H,
    PORT_WIDTH,
    SUBNET_WIDTH,
    _away_from_others,
    _box,
    _extent,
    _Label,
    _Placed,
    _Room,
    short_port,
)


class DrawingLabels(QWidget):
    """The label layout of `LabDrawing` (which provides the picture, its placement and fonts)."""

    _picture: LabPicture
    _placed: dict[str, _Placed]
    _labels: tuple[tuple[int, int, str, float], list[_Label]] | None

    def _small_font(self) -> QFont:
        """The labels' font (the drawing's)."""
        raise NotImplementedError

    def _label_height(self) -> int:
        """The height of a label's rows (the drawing's)."""
        raise NotImplementedError

    def _place(self) -> None:
        """Place the nodes at the current size (the drawing's)."""
        raise NotImplementedError

    def icon_box(self, name: str) -> QRectF | None:
        """Where a node's icon is (the drawing's)."""
        raise NotImplementedError

    def node_labels(self, placed: _Placed) -> list[tuple[QRectF, str]]:
        """A node's name and address labels (the drawing's)."""
        raise NotImplementedError

    def _legend_rows(self, width: int) -> list[list[tuple[str, str, float]]]:
        """The legend's rows at ``width`` (the painting's)."""
        raise NotImplementedError

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
