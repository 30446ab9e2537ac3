"""The lab drawing, checked on its pixels: nodes where the GNS3 coordinates say (scaled to the
width), new ones green, a removed link red along its line, unchanged grey; readable at 360 px;
a click on a node names it; screen readers get the picture in words."""

from __future__ import annotations

from dataclasses import replace

from PyQt6.QtCore import QPoint, QPointF, QRectF, Qt
from PyQt6.QtGui import QColor, QFontMetrics, QImage, QPalette, QTextDocument
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.lab.drawing import LabDrawing
from gns3_copilot_desktop.ui.lab.drawing_parts import (
    ICON,
    LEGEND_H,
    SYMBOL,
    plain_tooltip,
    short_port,
    state_colour,
)
from gns3_copilot_desktop.ui.theme import contrast_ratio, dark_palette, light_palette

PICTURE = LabPicture(
    nodes=(
        PictureNode("SW1", "ethernet_switch", 0, 0, "unchanged"),
        PictureNode("PC1", "vpcs", -300, 200, "new", None, ("192.0.2.1/24",)),
        PictureNode("PC2", "vpcs", 300, 200, "unchanged"),
        PictureNode("R9", "dynamips", 300, -200, "removed"),
    ),
    links=(
        PictureLink("PC1", "Ethernet0", "SW1", "Ethernet1", "new", "192.0.2.0/24"),
        PictureLink("PC2", "Ethernet0", "SW1", "Ethernet2", "unchanged"),
        PictureLink("R9", "f0/0", "SW1", "Ethernet3", "removed"),
    ),
)


def _render(qtbot: QtBot, width: int, palette: QPalette) -> tuple[LabDrawing, QImage]:
    drawing = LabDrawing(PICTURE)
    drawing.setPalette(palette)
    qtbot.addWidget(drawing)
    drawing.resize(width, drawing.heightForWidth(width))
    image = QImage(drawing.size(), QImage.Format.Format_ARGB32)
    image.fill(palette.color(QPalette.ColorRole.Window))
    drawing.render(image)
    return drawing, image


def _near(colour: QColor, target: QColor, tolerance: int = 60) -> bool:
    return (
        abs(colour.red() - target.red())
        + abs(colour.green() - target.green())
        + abs(colour.blue() - target.blue())
        <= tolerance
    )


def _has_colour(image: QImage, centre: QPointF, radius: int, target: QColor) -> bool:
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            x, y = int(centre.x()) + dx, int(centre.y()) + dy
            inside = 0 <= x < image.width() and 0 <= y < image.height()
            if inside and _near(image.pixelColor(x, y), target):
                return True
    return False


def test_nodes_are_where_the_coordinates_say_at_360_and_800_px(qtbot: QtBot) -> None:
    for width in (360, 800):
        for palette in (light_palette(), dark_palette()):
            drawing, image = _render(qtbot, width, palette)
            sw1, pc1, pc2, r9 = (drawing.node_centre(n) for n in ("SW1", "PC1", "PC2", "R9"))
            assert sw1 and pc1 and pc2 and r9
            # the GNS3 layout, scaled: PC1 left-below, PC2 right-below, R9 right-above SW1
            assert pc1.x() < sw1.x() < pc2.x() and r9.y() < sw1.y() < pc1.y()
            assert abs(pc1.y() - pc2.y()) < 1 and abs((sw1.x() - pc1.x()) - (pc2.x() - sw1.x())) < 1
            scale = (pc2.x() - pc1.x()) / 600
            # rows keep at least 0.6 of their distance in a narrow column (the order is kept)
            assert 0 < scale <= 1 and abs((pc1.y() - sw1.y()) - 200 * max(scale, 0.6)) < 1
            # everything inside the widget, icons included
            for centre in (sw1, pc1, pc2, r9):
                assert ICON / 2 <= centre.x() <= width - ICON / 2
            green = state_colour("new", palette)
            red = state_colour("removed", palette)
            assert _has_colour(image, pc1, ICON // 2 + 2, green), f"PC1 not green at {width}"
            assert not _has_colour(image, pc2, ICON // 2 + 2, green), "PC2 is not new"
            assert not _has_colour(image, sw1, ICON // 2 - 4, red)
            # the removed link R9-SW1 is red somewhere along its middle stretch
            along = [r9 + (sw1 - r9) * t for t in (0.4, 0.45, 0.5, 0.55, 0.6)]
            assert any(_has_colour(image, p, 2, red) for p in along), f"no red link at {width}"
            # the labels are under the icons, not on them
            assert drawing.heightForWidth(width) > (pc1.y() + ICON)
    assert SYMBOL == 50


def test_a_click_on_a_node_names_it_and_the_picture_is_described(qtbot: QtBot) -> None:
    drawing, _ = _render(qtbot, 500, QApplication.palette())
    drawing.show()
    centre = drawing.node_centre("PC1")
    assert centre is not None
    with qtbot.waitSignal(drawing.node_clicked, timeout=2000) as clicked:
        qtbot.mouseClick(drawing, Qt.MouseButton.LeftButton, pos=centre.toPoint())
    assert clicked.args == ["PC1"]
    with qtbot.assertNotEmitted(drawing.node_clicked):
        qtbot.mouseClick(drawing, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))
    text = drawing.accessibleDescription()
    assert "4 nodes, 3 links." in text and "New: PC1." in text and "Removed: R9." in text
    assert "PC1 Ethernet0 – SW1 Ethernet1" in text


def test_hostile_names_and_an_empty_lab_draw_without_error(qtbot: QtBot) -> None:
    hostile = LabPicture(
        nodes=(
            PictureNode("<b>x</b>\n" + "R" * 3000, "mystery", 0, 0, "new"),
            PictureNode("\u202eevil", "cloud", 0, 0),  # the same position
        ),
        links=(PictureLink("<b>x</b>", "p", "nowhere", "q"),),
    )
    for picture in (hostile, LabPicture((), ())):
        drawing = LabDrawing(picture)
        qtbot.addWidget(drawing)
        drawing.resize(360, drawing.heightForWidth(360))
        image = QImage(drawing.size(), QImage.Format.Format_ARGB32)
        drawing.render(image)
        assert drawing.heightForWidth(360) < 400


DENSE = LabPicture(
    nodes=(
        PictureNode("R1", "dynamips", 0, -200, "unchanged", None, ("10.0.12.1/24",)),
        PictureNode("R2", "dynamips", -250, 0, "new", None, ("10.0.12.2/24",)),
        PictureNode("R3-with-a-very-long-name-indeed", "qemu", 250, 0, "changed"),
        PictureNode("SW1", "ethernet_switch", -250, 200, "new"),
        PictureNode("PC1", "vpcs", -400, 350, "new"),
        PictureNode("PC2", "vpcs", -100, 350, "removed"),
        PictureNode("<b>Cloud</b>", "cloud", 250, 200),
        PictureNode("\u05e9\u05e8\u05ea", "docker", 400, 350),
    ),
    links=(
        PictureLink("R1", "GigabitEthernet0/0", "R2", "GigabitEthernet0/0", "new", "10.0.12.0/24"),
        PictureLink(
            "R1", "Gi0/1", "R3-with-a-very-long-name-indeed", "Gi0/0", "unchanged", "10.0.13.0/24"
        ),
        PictureLink("R2", "f0/1", "SW1", "Ethernet0", "new"),
        PictureLink("SW1", "Ethernet1", "PC1", "Ethernet0", "new", "192.168.1.0/24"),
        PictureLink("SW1", "Ethernet2", "PC2", "Ethernet0", "removed"),
        PictureLink("R3-with-a-very-long-name-indeed", "e1", "<b>Cloud</b>", "eth0", filtered=True),
        PictureLink("<b>Cloud</b>", "eth1", "\u05e9\u05e8\u05ea", "eth0", suspended=True),
    ),
)


CROWDED = LabPicture(
    nodes=(
        PictureNode("R1", "dynamips", 0, -250, "new", None, ("10.0.12.1/30",)),
        PictureNode("R2", "dynamips", -200, -80, "new", None, ("10.0.12.2/30",)),
        PictureNode("R3", "iou", 200, -80, "new"),
        PictureNode("SW1", "ethernet_switch", 0, 100, "new"),
        PictureNode("PC1", "vpcs", -300, 250, "new", None, ("192.168.1.11/24",)),
        PictureNode("PC2", "vpcs", -150, 280, "new"),
        PictureNode("PC3", "vpcs", 0, 300, "new"),
        PictureNode("PC4", "vpcs", 150, 280),
        PictureNode("PC5", "vpcs", 300, 250),
        PictureNode("Server", "docker", 320, 100, "new"),
    ),
    links=(
        PictureLink("R1", "GigabitEthernet0/0", "R2", "GigabitEthernet0/0", "new", "10.0.12.0/30"),
        PictureLink("R1", "GigabitEthernet0/1", "R3", "Ethernet0/0", "new", "10.0.13.0/30"),
        PictureLink("R2", "Ethernet0/1", "R3", "Ethernet0/1", "new", "10.0.23.0/30"),
        PictureLink("R2", "FastEthernet1/0", "SW1", "Ethernet0", "new", "192.168.1.0/24"),
        PictureLink("R3", "Ethernet1/0", "SW1", "Ethernet1", "new", "192.168.1.0/24"),
        *(
            PictureLink("SW1", f"Ethernet{i + 2}", pc, "Ethernet0", state, "192.168.1.0/24")
            for i, (pc, state) in enumerate(
                (("PC1", "new"), ("PC2", "new"), ("PC3", "new"), ("PC4", "unchanged"))
            )
        ),
        PictureLink("SW1", "Ethernet6", "PC5", "Ethernet0"),
        PictureLink("SW1", "Ethernet7", "Server", "eth0", "new", "192.168.1.0/24"),
    ),
)
"""A triangle of routers with long interface names over a switch with eight links."""


def _draw(qtbot: QtBot, picture: LabPicture, width: int) -> LabDrawing:
    drawing = LabDrawing(picture)
    qtbot.addWidget(drawing)
    drawing.resize(width, drawing.heightForWidth(width))
    drawing.render(QImage(drawing.size(), QImage.Format.Format_ARGB32))
    return drawing


def _assert_labels_clear(drawing: LabDrawing, picture: LabPicture) -> None:
    """No label overlaps another or an icon, and all lie inside the widget, above the legend."""
    width = drawing.width()
    legend = len(drawing._legend_rows(width)) * LEGEND_H
    room = QRectF(0, 0, width, drawing.height() - legend)
    icons = [drawing.icon_box(n.name) for n in picture.nodes]
    labels = drawing.drawn_labels
    for kind, rect, text in labels:
        assert room.contains(rect), (width, kind, text)
        for icon in icons:
            assert icon is not None
            assert not rect.intersects(icon), (width, kind, text)
    for i, (_, rect, text) in enumerate(labels):
        for _, other, other_text in labels[i + 1 :]:
            assert not rect.intersects(other), (width, text, other_text)


def test_labels_keep_clear_of_icons_and_of_each_other_at_360_and_800_px(qtbot: QtBot) -> None:
    for width in (360, 800):
        drawing = _draw(qtbot, DENSE, width)
        _assert_labels_clear(drawing, DENSE)
        kinds = {kind for kind, _, _ in drawing.drawn_labels}
        assert {"name", "address", "port", "subnet"} <= kinds, (width, kinds)
        # a label with no free spot is left out (at 360 px, on short links), never drawn over
        # another; every port and subnet stays in the words a screen reader gets
        shown = {text for _, _, text in drawing.drawn_labels}
        assert {"Gi0/0", "10.0.12.0/24", "10.0.13.0/24"} <= shown, (width, shown)
        if width == 800:
            assert {"192.168.1.0/24", "e2", "Gi0/1", "eth1"} <= shown, shown
        assert "SW1 Ethernet2 – PC2 Ethernet0" in drawing.accessibleDescription()
        assert "SW1 Ethernet1 – PC1 Ethernet0, 192.168.1.0/24" in drawing.accessibleDescription()


def test_a_crowded_plan_keeps_its_labels_apart_abbreviated_and_near_their_ends(
    qtbot: QtBot,
) -> None:
    ports = [
        (end, port, other)
        for link in CROWDED.links
        for end, port, other in ((link.a, link.a_port, link.b), (link.b, link.b_port, link.a))
    ]
    for width in (360, 800):
        drawing = _draw(qtbot, CROWDED, width)
        _assert_labels_clear(drawing, CROWDED)
        drawn = [(rect, text) for kind, rect, text in drawing.drawn_labels if kind == "port"]
        assert all("Ethernet" not in text for _, text in drawn), drawn
        # each port drawn sits in its own end's half of a link with that port
        for rect, text in drawn:
            owners = []
            for end, port, other in ports:
                near, far = drawing.node_centre(end), drawing.node_centre(other)
                assert near is not None and far is not None
                centre = rect.center()
                closer = (centre - near).manhattanLength() < (centre - far).manhattanLength()
                if short_port(port) == text and closer:
                    owners.append(end)
            assert owners, (width, text, rect)
        subnets = {text for kind, _, text in drawing.drawn_labels if kind == "subnet"}
        names = {text for kind, _, text in drawing.drawn_labels if kind == "name"}
        assert names == {n.name for n in CROWDED.nodes}, (width, names)
        if width == 800:  # wide: every port and every subnet has room
            assert len(drawn) == len(ports), (len(drawn), len(ports))
            assert subnets == {"10.0.12.0/30", "10.0.13.0/30", "10.0.23.0/30", "192.168.1.0/24"}
        else:  # narrow: most still fit, the routers' long names among them
            assert len(drawn) >= len(ports) * 2 // 3, len(drawn)
            assert {"Gi0/0", "Gi0/1", "e0/1"} <= {text for _, text in drawn}
            assert "192.168.1.0/24" in subnets


def test_long_interface_names_are_abbreviated_by_one_rule() -> None:
    assert short_port("GigabitEthernet0/1") == "Gi0/1"
    assert short_port("FastEthernet1/0") == "Fa1/0"
    assert short_port("TenGigabitEthernet1/0/1") == "Te1/0/1"
    assert short_port("Serial2/0") == "Se2/0"
    assert short_port("GigabitEthernet0/0.10") == "Gi0/0.10"
    assert short_port("Ethernet0/0") == "e0/0"
    assert short_port("Ethernet7") == "e7"
    assert short_port("ethernet3") == "e3"
    # already short, or not an interface name: as written
    for name in ("Gi0/1", "e0", "eth0", "f0/0", "ens3", "port1", "any", "", "Ethernet", "<b>x"):
        assert short_port(name) == name


def test_a_port_left_out_for_want_of_room_is_in_the_tooltips(qtbot: QtBot) -> None:
    picture = LabPicture(
        nodes=(
            PictureNode("R1", "dynamips", 0, 0, "new"),
            PictureNode("R2", "dynamips", 60, 0, "new"),
        ),
        links=(PictureLink("R1", "GigabitEthernet0/1", "R2", "Serial1/0", "new"),),
    )
    drawing = _draw(qtbot, picture, 800)
    _assert_labels_clear(drawing, picture)
    # the icons leave the link no room for a port
    assert [kind for kind, _, _ in drawing.drawn_labels if kind == "port"] == []
    r1, r2 = drawing.node_centre("R1"), drawing.node_centre("R2")
    assert r1 is not None and r2 is not None
    assert drawing.tooltip_at((r1 + r2) / 2) == "R1 GigabitEthernet0/1 – R2 Serial1/0"
    assert drawing.tooltip_at(r1).splitlines() == [
        "R1",
        "dynamips",
        "GigabitEthernet0/1 – R2 Serial1/0",
    ]
    assert drawing.tooltip_at(r2).splitlines()[-1] == "Serial1/0 – R1 GigabitEthernet0/1"
    # so is every port of the crowded plan at 360 px: its node's tooltip names it in full
    crowded = _draw(qtbot, CROWDED, 360)
    for link in CROWDED.links:
        for end, port, other, other_port in (
            (link.a, link.a_port, link.b, link.b_port),
            (link.b, link.b_port, link.a, link.a_port),
        ):
            centre = crowded.node_centre(end)
            assert centre is not None
            assert f"{port} – {other} {other_port}" in crowded.tooltip_at(centre).splitlines()


def test_the_legend_names_link_kinds_and_wraps_in_a_narrow_column(qtbot: QtBot) -> None:
    drawing = LabDrawing(DENSE)
    qtbot.addWidget(drawing)
    keys = [key for key, _ in drawing.legend_entries()]
    assert keys == [
        "new",
        "removed",
        "changed",
        "unchanged",
        "suspended link",
        "filtered link",
    ]
    narrow, wide = drawing._legend_rows(360), drawing._legend_rows(800)
    assert len(narrow) == 2 and len(wide) == 1
    metrics = QFontMetrics(drawing._small_font())
    for row in narrow:
        _, text, x = row[-1]
        assert x + 20 + metrics.horizontalAdvance(text) <= 360
    # the second row is part of the height the layout asks for
    plain = LabDrawing(
        LabPicture(
            DENSE.nodes, tuple(replace(x, suspended=False, filtered=False) for x in DENSE.links)
        )
    )
    qtbot.addWidget(plain)
    assert len(plain._legend_rows(360)) == 1
    assert drawing.heightForWidth(360) == plain.heightForWidth(360) + LEGEND_H


def test_tooltips_show_hostile_names_as_written(qtbot: QtBot) -> None:
    hostile = "<b>SW</b><img src='/etc/passwd'>"
    picture = LabPicture(
        nodes=(
            PictureNode(hostile, "ethernet_switch", 0, 0, status="started"),
            PictureNode("PC1", "vpcs", 300, 0, status="stopped"),
        ),
        links=(PictureLink(hostile, "e0", "PC1", "Ethernet0", suspended=True, filtered=True),),
    )
    drawing = LabDrawing(picture)
    qtbot.addWidget(drawing)
    drawing.resize(500, drawing.heightForWidth(500))
    drawing.show()
    qtbot.waitExposed(drawing)
    centre = drawing.node_centre(hostile)
    other = drawing.node_centre("PC1")
    assert centre is not None and other is not None
    tip = drawing.tooltip_at(centre)
    assert tip.splitlines()[0] == hostile
    document = QTextDocument()
    document.setHtml(plain_tooltip(tip))
    assert document.toPlainText() == tip  # shown as written, not as bold text and an image
    middle = (centre + other) / 2 + QPointF(30, 0)
    assert drawing.tooltip_at(middle).splitlines() == [
        f"{hostile} e0 – PC1 Ethernet0",
        "suspended",
        "filtered",
    ]
    assert drawing.tooltip_at(QPointF(2, 2)) == ""
    # the screen reader's words list each node with its status and each link with its kinds
    text = drawing.accessibleDescription()
    assert f"{hostile} (ethernet_switch, started)" in text and "PC1 (vpcs, stopped)" in text
    assert f"{hostile} e0 – PC1 Ethernet0, suspended, filtered" in text
    # a press on one node released on another is no click
    with qtbot.assertNotEmitted(drawing.node_clicked):
        qtbot.mousePress(drawing, Qt.MouseButton.LeftButton, pos=centre.toPoint())
        qtbot.mouseRelease(drawing, Qt.MouseButton.LeftButton, pos=other.toPoint())


def test_state_hues_read_on_light_dark_and_the_gns3_charcoal(qtbot: QtBot) -> None:
    charcoal = QPalette()
    for role, value in (
        (QPalette.ColorRole.Base, "#535353"),
        (QPalette.ColorRole.Window, "#535353"),
        (QPalette.ColorRole.Text, "#dedede"),
        (QPalette.ColorRole.WindowText, "#dedede"),
    ):
        charcoal.setColor(role, QColor(value))
    for palette in (light_palette(), dark_palette(), charcoal):
        base = palette.color(QPalette.ColorRole.Base)
        hues = {s: state_colour(s, palette) for s in ("new", "removed", "changed")}
        for state, hue in hues.items():
            assert contrast_ratio(hue, base) >= 4.5, (base.name(), state, hue.name())
        assert len({h.name() for h in hues.values()}) == 3  # still three different hues
        assert hues["new"].green() > hues["new"].red()
        assert hues["removed"].red() > hues["removed"].green()
