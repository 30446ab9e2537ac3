"""The Classroom panel in the real app, against the trainer's real `gns3-copilot serve` and the
real GNS3 server with real VPCS hosts: a student logged in with their own GNS3 account takes an
exam in the dock (ticket, Start, Hint, fix on the console, Submit, result); the trainer, in Chinese
at 360 px, watches the class and exports the grades. Only the model is a stand-in (no turn asks
it anything). The README's Classroom pictures are taken here (GNS3_COPILOT_SCREENSHOTS)."""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import uuid
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from PyQt6.QtWidgets import QApplication, QLabel, QPushButton
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.gns3 import Gns3Client
from tests.helpers.classroom import (
    SECRET_VALUES,
    Account,
    Serve,
    admin_account,
    console,
    make_account,
    make_group,
    open_exam,
    start_serve,
    student_lab,
    upload_task,
)
from tests.helpers.copilot_app import CopilotApp, open_project, remember_login
from tests.helpers.keyring_backends import MemoryKeyring
from tests.helpers.vpcs_lab.gns3_lab import Gns3VpcsLab

pytestmark = [pytest.mark.gns3, pytest.mark.slow]

WAIT_MS = 60_000


def _in_thread(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine on a loop of its own (the Qt loop of the app is left alone)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@dataclass
class Classroom:
    base_url: str
    serve: Serve
    trainer: Account
    student: Account
    exam_id: str
    task_id: str


@dataclass(frozen=True)
class _Login:
    base_url: str
    username: str


@pytest.fixture(scope="module")
def classroom(
    gns3_vpcs_lab: Gns3VpcsLab, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Classroom]:
    base = gns3_vpcs_lab.base_url
    trainer = admin_account(gns3_vpcs_lab)
    student = make_account(base, trainer)
    group = make_group(base, trainer, [student])
    _in_thread(student_lab(base, trainer, student))
    serve = start_serve(base, tmp_path_factory.mktemp("class-app"))
    try:
        task = upload_task(serve, trainer)
        exam = open_exam(serve, trainer, task["task_id"], group, assist="hints")
        yield Classroom(base, serve, trainer, student, exam["exam_id"], task["task_id"])
    finally:
        serve.stop()

        async def clean() -> None:
            async with Gns3Client(base, token=trainer.token) as client:
                await client.delete_project(student.project_id)

        _in_thread(clean())


Dock = Callable[[Account, int], CopilotApp]
"""The app logged in as an account, at a width (see `dock`)."""


@pytest.fixture
def dock(
    classroom: Classroom,
    copilot_app: Callable[..., CopilotApp],
    app_keyring: MemoryKeyring,
    tmp_path: Path,
    qtbot: QtBot,
) -> Dock:
    """The app logged in as ``who`` (remembered login), using the class's copilot service, the
    student's lab open, and the Classroom shown."""

    def open_as(who: Account, width: int) -> CopilotApp:
        remember_login(
            tmp_path,
            _Login(classroom.base_url, who.name),
            who.token,
            app_keyring,
            extra={"copilot_service_url": classroom.serve.url},
        )
        app = copilot_app(server_url=classroom.base_url)
        app.window.resize(width, 760)
        qtbot.waitUntil(lambda: app.header.workspace.logged_in, timeout=WAIT_MS)
        open_project(app, classroom.student.project_id, qtbot)
        toggle = app.panel.classroom_toggle
        assert toggle.isVisible(), "a dock on a copilot service offers the classroom"
        toggle.click()
        qtbot.waitUntil(lambda: toggle.panel.exam_combo.count() >= 1, timeout=WAIT_MS)
        assert not app.panel.composer.isVisible(), "the classroom takes the conversation's room"
        return app

    return open_as


@contextlib.contextmanager
def _in_chinese() -> Iterator[None]:
    """The app's zh_CN translation installed for the block."""
    from gns3_copilot_desktop.app import install_translator, remove_translator

    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication)
    translator = install_translator(qapp, "zh_CN")
    assert translator is not None
    try:
        yield
    finally:
        remove_translator(qapp, translator)


def _fits(panel: Any) -> None:
    """Every visible button inside the dock and wide enough for its words."""
    for button in panel.findChildren(QPushButton):
        if button.isVisible():
            right = button.mapTo(panel, button.rect().topRight()).x()
            assert 0 <= right <= panel.width(), (button.text(), right, panel.width())
            assert button.width() >= button.sizeHint().width(), button.text()


def _pc1_show_ip(classroom: Classroom) -> str:
    """What the student's PC1 says of its address, read on its console."""

    async def show_ip() -> str:
        async with Gns3Client(classroom.base_url, token=classroom.trainer.token) as client:
            return await console(client, classroom.student.project_id, "PC1", "show ip")

    return str(_in_thread(show_ip()))


def _texts(widget: Any) -> str:
    return "\n".join(label.text() for label in widget.findChildren(QLabel))


def test_a_student_takes_the_exam_in_the_dock(
    classroom: Classroom,
    dock: Dock,
    qtbot: QtBot,
) -> None:
    app = dock(classroom.student, 520)
    panel = app.panel.classroom_toggle.panel
    student = panel.student
    qtbot.waitUntil(student.start_button.isVisible, timeout=WAIT_MS)
    assert student.ticket_label.text() == "PC1 cannot reach PC2 since this morning."
    assert not panel.table.isVisible(), "a student sees no class table"
    student.start_button.click()
    qtbot.waitUntil(student.submit_button.isVisible, timeout=WAIT_MS)
    assert "left" in student.time_label.text()

    assert "198.51.100.77/24" in _pc1_show_ip(classroom), "the service injected the student's lab"
    assert not student.isEnabled() or student.submit_button.isVisible()
    qtbot.waitUntil(student.hint_button.isEnabled, timeout=WAIT_MS)
    student.hint_button.click()
    qtbot.waitUntil(lambda: "Compare the addresses" in student.hints_label.text(), timeout=WAIT_MS)
    qtbot.waitUntil(student.isEnabled, timeout=WAIT_MS)
    app.shot("classroom-student")
    assert not any(v in _texts(app.window) for v in SECRET_VALUES), "the answer in the dock"

    async def fix() -> None:
        async with Gns3Client(classroom.base_url, token=classroom.student.token) as client:
            await console(client, classroom.student.project_id, "PC1", "ip 192.0.2.1/24")

    _in_thread(fix())
    asked: list[bool] = []

    async def yes() -> bool:
        asked.append(True)
        return True

    panel.ask_submit = yes  # type: ignore[method-assign]
    qtbot.waitUntil(student.submit_button.isEnabled, timeout=WAIT_MS)  # the hint's refresh ended
    student.submit_button.click()
    try:
        qtbot.waitUntil(lambda: "Score: 100 of 100" in student.result_label.text(), timeout=WAIT_MS)
    except Exception:
        pytest.fail(f"no result: {panel.error_label.text()!r} {panel.status_label.text()!r}")
    assert asked == [True]
    assert "✓ PC1 reaches PC2: PC1 and PC2 talk again." in student.result_label.text()
    assert not student.submit_button.isVisible() and not student.start_button.isVisible()
    assert student.time_label.text() == "Submitted."
    app.shot("classroom-student-result")


def test_the_trainer_watches_the_class_in_chinese_at_360_px_and_exports_it(
    classroom: Classroom,
    dock: Dock,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    with _in_chinese():
        app = dock(classroom.trainer, 360)
        panel = app.panel.classroom_toggle.panel
        table = panel.table
        _fits(panel)
        qtbot.waitUntil(lambda: table.table.rowCount() == 1, timeout=WAIT_MS)
        item = table.table.item(0, 0)
        assert item is not None and item.text() == classroom.student.name
        assert not panel.student.isVisible()
        assert "导出" in table.csv_button.text(), table.csv_button.text()
        _fits(panel)
        app.shot("classroom-trainer-zh-CN-360")

        target = tmp_path / f"grades-{uuid.uuid4().hex[:6]}.csv"
        panel.ask_export_path = lambda fmt: target  # type: ignore[method-assign]
        table.csv_button.click()
        # the panel says where it saved once the file is written (it exists from its opening)
        qtbot.waitUntil(lambda: target.name in panel.status_label.text(), timeout=WAIT_MS)
        rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
        assert [r["student"] for r in rows] == [classroom.student.name]


def test_the_trainer_saves_the_working_lab_as_a_proved_task(
    classroom: Classroom,
    dock: Dock,
    tmp_path: Path,
    qtbot: QtBot,
) -> None:
    """ "Save this lab as a task…": checks proposed from what the lab does now, a fault the gate
    refuses and one that breaks nothing are not accepted, a real fault is proved (the lab left as
    it was), then saved and uploaded to the class's service."""
    app = dock(classroom.trainer, 520)
    panel = app.panel.classroom_toggle.panel
    qtbot.waitUntil(panel.table.new_task_button.isVisible, timeout=WAIT_MS)
    panel.table.new_task_button.click()
    editor = panel.task_editor
    assert editor is not None
    qtbot.waitUntil(lambda: editor.checks_list.count() >= 3, timeout=WAIT_MS)
    items = [editor.checks_list.item(i) for i in range(editor.checks_list.count())]
    titles = [item.text() for item in items if item is not None]
    assert "PC1 has the address 192.0.2.1/24 (10)" in titles
    assert "PC1 reaches PC2 (20)" in titles
    assert not editor.save_button.isEnabled(), "nothing is saved before it is proved"
    editor.title_edit.setText("The moved host")
    editor.ticket_edit.setPlainText("PC1 cannot reach PC2 since this morning.")
    editor.device_combo.setCurrentText("PC1")

    def prove_with(inject: str, undo: str, expected: str) -> None:
        editor.inject_edit.setPlainText(inject)
        editor.undo_edit.setPlainText(undo)
        editor.status_label.clear()
        editor.prove_button.click()
        qtbot.waitUntil(lambda: expected in editor.status_label.text(), timeout=WAIT_MS)

    prove_with("reload", "ip 192.0.2.1/24", "the command gate refuses")
    assert editor.proved_text is None
    prove_with("ip 192.0.2.1/24", "ip 192.0.2.1/24", "the faults break nothing")
    assert editor.proved_text is None and not editor.save_button.isEnabled()
    prove_with("ip 198.51.100.9/24", "ip 192.0.2.1/24", "Proved")
    assert editor.save_button.isEnabled() and editor.upload_button.isEnabled()

    assert "192.0.2.1/24" in _pc1_show_ip(classroom), "the proof left the lab as it was"
    app.shot("classroom-task-editor", editor)
    target = tmp_path / "moved.toml"
    editor.ask_save_path = lambda: target  # type: ignore[method-assign]
    editor.save_button.click()
    saved = target.read_text(encoding="utf-8")
    assert 'inject = ["ip 198.51.100.9/24"]' in saved and "PC1 reaches PC2" in saved
    editor.upload_button.click()
    qtbot.waitUntil(lambda: "Uploaded" in editor.status_label.text(), timeout=WAIT_MS)
    tasks = httpx.get(
        f"{classroom.serve.url}/v3/classroom/tasks", headers=classroom.trainer.headers
    ).json()
    assert "The moved host" in [t["title"] for t in tasks]
    editor.title_edit.setText("Changed")  # any edit asks for a new proof
    assert not editor.save_button.isEnabled()
    editor.close()


def test_practice_in_the_dock_checks_and_giving_up_shows_the_answer(
    classroom: Classroom,
    dock: Dock,
    qtbot: QtBot,
) -> None:
    group = httpx.get(
        f"{classroom.serve.url}/v3/classroom/exams", headers=classroom.trainer.headers
    ).json()[0]["group"]
    open_exam(
        classroom.serve,
        classroom.trainer,
        classroom.task_id,
        group,
        title="Practice: PC1",
        kind="practice",
    )
    app = dock(classroom.student, 520)
    panel = app.panel.classroom_toggle.panel
    qtbot.waitUntil(lambda: panel.exam_combo.count() == 2, timeout=WAIT_MS)
    panel.exam_combo.setCurrentIndex(panel.exam_combo.findText("Practice: PC1"))
    student = panel.student
    qtbot.waitUntil(student.start_button.isVisible, timeout=WAIT_MS)
    student.start_button.click()
    qtbot.waitUntil(student.check_button.isVisible, timeout=WAIT_MS)
    assert not student.submit_button.isVisible(), "practice is checked, not submitted"
    qtbot.waitUntil(student.check_button.isEnabled, timeout=WAIT_MS)
    student.check_button.click()
    qtbot.waitUntil(lambda: "✗ PC1 reaches PC2" in student.result_label.text(), timeout=WAIT_MS)

    async def yes() -> bool:
        return True

    panel.ask_give_up = yes  # type: ignore[method-assign]
    qtbot.waitUntil(student.give_up_button.isEnabled, timeout=WAIT_MS)
    student.give_up_button.click()
    qtbot.waitUntil(lambda: "The answer:" in student.result_label.text(), timeout=WAIT_MS)
    assert "PC1: ip 198.51.100.77/24 (undone with ip 192.0.2.1/24)" in student.result_label.text()
    assert student.time_label.text() == "You gave up."
    assert "192.0.2.1/24" in _pc1_show_ip(classroom), "giving up restored the lab"
    label = student.result_label
    qtbot.waitUntil(  # laid out before the picture is taken
        lambda: label.height() >= label.heightForWidth(label.width()), timeout=WAIT_MS
    )
    app.shot("classroom-practice-gave-up")


def test_a_student_in_chinese_at_360_px(
    classroom: Classroom,
    dock: Dock,
    qtbot: QtBot,
) -> None:
    with _in_chinese():
        app = dock(classroom.student, 360)
        panel = app.panel.classroom_toggle.panel
        qtbot.waitUntil(lambda: panel.student.title_label.text() != "", timeout=WAIT_MS)
        assert "分" in panel.student.title_label.text(), panel.student.title_label.text()
        assert "提示" in panel.status_label.text(), panel.status_label.text()
        _fits(panel)
        app.shot("classroom-student-zh-CN-360")
