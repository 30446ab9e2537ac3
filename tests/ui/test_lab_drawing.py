"""The lab drawing, checked on its pixels: nodes where the GNS3 coordinates say (scaled to the
width), new ones green, a removed link red along its line, unchanged grey; readable at 360 px;
a click on a node names it; screen readers get the picture in words."""

from __future__ import annotations

from PyQt6.QtCore import QPoint, QPointF, Qt
from PyQt6.QtGui import QColor, QImage, QPalette
from PyQt6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.lab_plan.picture import LabPicture, PictureLink, PictureNode
from gns3_copilot_desktop.ui.lab_drawing import ICON, SYMBOL, LabDrawing, state_colour
from gns3_copilot_desktop.ui.theme import dark_palette, light_palette

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
