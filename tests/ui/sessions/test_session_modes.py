"""Session modes in the chat over the scripted backend: the picker on New, the header badge, the
Practice panel's states with a scripted engine stand-in (no lab): errors are shown and the buttons
come back, nothing sealed shows before the end, a backend without exercises says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from PyQt6.QtWidgets import QToolButton
from pytestqt.qtbot import QtBot

from gns3_copilot_desktop.core.errors import Gns3ConnectionError
from gns3_copilot_desktop.core.practice.package import TrainerKey
from gns3_copilot_desktop.core.practice.store import PracticeError
from gns3_copilot_desktop.ui.chat.panel import ChatPanel
from gns3_copilot_desktop.ui.practice import dialogs as practice_dialogs
from gns3_copilot_desktop.ui.practice.panel import PracticePanel
from gns3_copilot_desktop.ui.qt_async import spawn
from tests.helpers.fake_backend import ScriptedBackend
from tests.helpers.practice_standin import (
    HINTS,
    SECRET_SYMPTOMS,
    SECRET_TITLE,
    SECRET_UNDO,
    PracticeStandIn,
    assert_sealed,
    memory_trainer_keys,
)

SEALED = [SECRET_TITLE, SECRET_SYMPTOMS, SECRET_UNDO, "vpcs-wrong-address", *HINTS]


def _open(qtbot: QtBot, panel: ChatPanel, session_id: str) -> None:
    task = spawn(panel.open_session(session_id))
    qtbot.waitUntil(task.done)
    task.result()


def _new(qtbot: QtBot, panel: ChatPanel, mode: str) -> None:
    [action] = [a for a in panel.sessions.mode_menu.actions() if a.data() == mode]
    before = panel.session_id
    action.trigger()
    qtbot.waitUntil(lambda: panel.session_id not in (None, before))


def test_the_new_button_picks_a_mode_and_the_header_shows_it(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> None:
    new = panel.sessions.new_button
    assert new.popupMode() is QToolButton.ToolButtonPopupMode.MenuButtonPopup
    actions = panel.sessions.mode_menu.actions()
    assert [a.text() for a in actions] == ["Assistant", "Tutor", "Practice"]
    assert all(a.toolTip() and a.toolTip() != a.text() for a in actions)
    assert "never changes it" in actions[1].toolTip()

    new.click()  # the button itself: an Assistant session, no badge, no panel
    qtbot.waitUntil(lambda: panel.session_id is not None)
    first = panel.session_id
    assert first is not None
    assert backend.created_modes == ["assistant"]
    assert panel.mode_badge.isHidden() and panel.practice.isHidden()

    _new(qtbot, panel, "tutor")
    assert backend.created_modes[-1] == "tutor"
    assert panel.mode_badge.isVisible() and panel.mode_badge.text() == "Tutor"
    assert panel.mode_badge.accessibleName() == "Mode: Tutor"
    assert panel.practice.isHidden()
    panel.sessions_toggle.setChecked(True)
    rows = [panel.sessions.list.item(i).text() for i in range(panel.sessions.list.count())]  # type: ignore[union-attr]
    assert rows[0].split("\n")[1].startswith("Tutor · ")

    _new(qtbot, panel, "practice")
    assert panel.mode_badge.text() == "Practice" and panel.practice.isVisible()
    # no engine here (a copilot service on another computer): the panel says why
    qtbot.waitUntil(lambda: "local agent" in panel.practice.status_label.text())
    assert not panel.practice.start_button.isEnabled()

    # a title arriving keeps the mode; an Assistant session opened again hides both
    panel.sessions.update_title(panel.session_id or "", "Broken LAN")
    assert panel.sessions.entries[0].mode == "practice"
    _open(qtbot, panel, first)
    assert panel.mode_badge.isHidden() and panel.practice.isHidden()


@pytest.fixture
def practice(
    qtbot: QtBot, panel: ChatPanel, backend: ScriptedBackend
) -> tuple[PracticePanel, PracticeStandIn]:
    engine = PracticeStandIn()
    backend.practice_engine = engine
    panel.practice.trainer_keys = memory_trainer_keys()
    panel.resize(520, 900)
    _new(qtbot, panel, "practice")
    qtbot.waitUntil(lambda: panel.practice.topic_combo.count() == 3)
    return panel.practice, engine


def _sealed_absent(panel: ChatPanel) -> None:
    assert_sealed(panel, SEALED)


def test_a_solved_exercise_with_its_errors_shown_and_nothing_sealed_before_the_end(
    qtbot: QtBot, panel: ChatPanel, practice: tuple[PracticePanel, PracticeStandIn]
) -> None:
    view, engine = practice
    assert [view.topic_combo.itemText(i) for i in range(3)] == ["Any", "addressing", "link"]
    view.difficulty_combo.setCurrentIndex(1)
    view.count_spin.setValue(2)

    engine.failures["prepare"] = PracticeError("No fault of this level applies to this lab.")
    view.start_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text() == "No fault of this level applies to this lab."
    assert view.start_button.isEnabled() and view.setup_row.isVisible()

    view.start_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    assert view.error_label.isHidden()
    card = view._card
    assert card is not None and card.items[0].summary == "inject 2 intermediate faults on 1 device"
    engine.gate = asyncio.Event()
    card.items[0].approve.click()
    qtbot.waitUntil(
        lambda: view.status_label.text().startswith(
            "Injecting the faults and confirming each on its device…"
        )
    )
    assert not view.start_button.isEnabled()
    engine.gate.set()
    qtbot.waitUntil(lambda: view.active_row.isVisible())
    item = panel.view.card("practice-inject-ex1")
    assert item is not None and item.summary == "Injected (sealed)"
    _sealed_absent(panel)

    engine.failures["check"] = Gns3ConnectionError("The GNS3 server at x is unreachable.")
    view.check_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert "unreachable" in view.error_label.text() and view.check_button.isEnabled()
    view.check_button.click()  # the first real check: not solved
    qtbot.waitUntil(lambda: view.checks_label.isVisible())
    assert view.checks_label.text().splitlines() == [
        "✘ PC1 reaches 192.0.2.2: failed",
        "✔ Lab check 2: passed",
        "✘ Lab check 3: failed",
    ]
    view.hint_button.click()
    qtbot.waitUntil(lambda: view.hints_label.isVisible())
    assert view.hints_label.text() == f"Hint 1 of 3: {HINTS[0]}"
    _sealed_absent_but(panel, HINTS[0])

    view.check_button.click()
    qtbot.waitUntil(lambda: view.answer_label.isVisible())
    assert view.headline_label.text().endswith("with 1 hint(s). Score: 85/100.")
    assert SECRET_TITLE in view.answer_label.text() and SECRET_UNDO in view.answer_label.text()
    assert item.summary == f"Injected: {SECRET_TITLE} (PC1)"
    with pytest.raises(AssertionError):  # the answer shows now, and the check would see it
        _sealed_absent(panel)
    qtbot.waitUntil(lambda: view.past_list.count() == 1)
    assert view.past_toggle.text() == "Past exercises (1)"
    row = view.past_list.item(0)
    assert row is not None and "Intermediate · any topic · solved · score 85" in row.text()


def _sealed_absent_but(panel: ChatPanel, given: str) -> None:
    assert_sealed(panel, [t for t in SEALED if t != given])


def test_rejecting_injects_nothing_and_give_up_offers_the_restore(
    qtbot: QtBot, practice: tuple[PracticePanel, PracticeStandIn]
) -> None:
    view, engine = practice
    view.start_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    card = view._card
    assert card is not None
    card.items[0].reject.click()
    card.items[0].confirm_reject()
    qtbot.waitUntil(lambda: view.status_label.text() == "Nothing was injected.")
    assert "approve" not in engine.calls and view.setup_row.isVisible()
    assert view._card is None

    view.start_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    view._card.items[0].approve.click()  # type: ignore[union-attr]
    qtbot.waitUntil(lambda: view.active_row.isVisible())
    view.give_up_button.click()
    qtbot.waitUntil(lambda: view.give_up_box is not None)  # asked first
    box = view.give_up_box
    assert box is not None and not view.answer_label.isVisible()
    box.reject()  # "Cancel": nothing happens
    qtbot.waitUntil(lambda: view.give_up_box is None)
    assert "give_up" not in engine.calls and view.active_row.isVisible()
    view.give_up_button.click()
    qtbot.waitUntil(lambda: view.give_up_box is not None)
    box = view.give_up_box
    assert box is not None
    [yes] = [b for b in box.buttons() if b.text() == "Give up and show the answer"]
    yes.click()
    qtbot.waitUntil(lambda: view.answer_label.isVisible())
    assert view.headline_label.text() == "You gave up. Here is the answer."
    assert SECRET_TITLE in view.answer_label.text()
    restore = view._card
    assert restore is not None and restore.items[0].request.tool_name == "restore_practice_lab"
    engine.failures["restore"] = PracticeError("The faults could not be undone.")
    restore.items[0].approve.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text() == "The faults could not be undone."
    assert view.start_button.isEnabled()  # a new exercise may still start
    again = view._card  # and the restore is offered again
    assert again is not None and again is not restore and not again.done
    again.items[0].approve.click()
    qtbot.waitUntil(lambda: "faults were undone" in view.status_label.text())
    assert engine.calls.count("restore") == 2 and view.error_label.isHidden()


def test_a_trainer_exports_and_a_student_imports_and_starts_the_exercise(
    qtbot: QtBot,
    panel: ChatPanel,
    backend: ScriptedBackend,
    practice: tuple[PracticePanel, PracticeStandIn],
    tmp_path: Path,
) -> None:
    """The dialogs are answered by the test (no modal loop); the file is really sealed and
    opened (core.practice.package), the lab part is the stand-in's (the engine's live test runs
    it on the real GNS3 server)."""
    view, engine = practice
    assert view.import_button.isVisible() and not view.export_button.isVisible()
    assert not view.start_imported_button.isVisible()  # nothing imported waits here

    view.start_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    assert view.export_button.isVisible() and view.export_button.isEnabled()
    answers = iter(["a passphrase!", "another one!"])
    view.ask_passphrase = lambda confirm: next(answers)  # type: ignore[method-assign]
    view.ask_export_path = lambda: tmp_path / "week3"  # type: ignore[method-assign]
    view.export_button.click()
    qtbot.waitUntil(lambda: "export_package" in engine.calls)
    target = tmp_path / "week3.gns3exercise"  # the extension is added
    qtbot.waitUntil(target.exists)
    qtbot.waitUntil(lambda: "Exported to" in view.status_label.text())
    assert "sealed against casual reading, not against" in view.status_label.text()
    assert str(target) in view.status_label.text()
    assert not (tmp_path / "week3.gns3exercise.part").exists()
    assert view._card is not None  # the trainer may still approve or reject here
    _sealed_absent(panel)
    assert SECRET_TITLE.encode() not in target.read_bytes()

    trainer_keys = view.trainer_keys
    assert trainer_keys is not None
    trainer = trainer_keys.pinned(view.trainer_name())  # a trainer trusts their own key
    assert trainer is not None and trainer.fingerprint in view.status_label.text()

    # A student (another computer, no key pinned): the first file asks to trust the trainer's
    # key, showing its fingerprint; a wrong passphrase is an error, then the right one imports.
    view._card.items[0].reject.click()  # the trainer does not run it here
    view._card.items[0].confirm_reject()
    qtbot.waitUntil(lambda: view.setup_row.isVisible() and view.start_button.isEnabled())
    student = view.trainer_keys = memory_trainer_keys()
    asked: list[TrainerKey] = []

    async def trust(key: TrainerKey) -> bool:
        asked.append(key)
        return True

    view.ask_trust = trust  # type: ignore[method-assign]
    view.ask_import_path = lambda: target  # type: ignore[method-assign]
    view.ask_passphrase = lambda confirm: "not it at all"  # type: ignore[method-assign]
    view.import_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text() == "The passphrase is wrong, or the file was changed."
    assert view.import_button.isEnabled()
    view.ask_passphrase = lambda confirm: "a passphrase!"  # type: ignore[method-assign]
    view.import_button.click()
    qtbot.waitUntil(lambda: "was imported as the project" in view.status_label.text())
    assert "“campus lab (exercise)”" in view.status_label.text()
    assert asked == [trainer, trainer]  # asked again: the wrong passphrase pinned nothing
    assert student.pinned(trainer.trainer) == trainer
    assert engine.calls[-2:] == ["import_exercise", "keep_imported"]
    assert backend.practice_projects[-1] == "p2"  # kept by the new project's engine
    assert view.error_label.isHidden()

    # In that project's Practice session the waiting exercise starts with a sealed card.
    spawn(view.set_session(view.session_id))
    qtbot.waitUntil(lambda: view.start_imported_button.isVisible())
    assert view.imported_label.text() == "A trainer's exercise is ready in this project."
    # The imported lab arrives stopped: "Start the lab" is offered in place of a dead end,
    # and once the lab runs the exercise is prepared without another click.
    engine.stopped = ["PC1", "PC2"]
    view.start_imported_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text() == (
        "The lab is stopped (PC1, PC2): start the lab, then the exercise."
    )
    assert view.start_lab_button.isVisible() and view.start_lab_button.isEnabled()
    assert not view.start_imported_button.isVisible() and view._card is None
    view.start_lab_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    assert engine.calls.count("prepare_imported") == 2
    assert engine.calls.index("start_lab") > engine.calls.index("prepare_imported")
    assert not view.start_lab_button.isVisible() and view.error_label.isHidden()
    assert not view.start_imported_button.isVisible() and not view.export_button.isVisible()
    assert view._card.items[0].summary == "inject 1 beginner fault on 1 device"
    _sealed_absent(panel)


def test_export_with_two_different_passphrases_or_an_unreadable_file_loses_nothing(
    qtbot: QtBot,
    practice: tuple[PracticePanel, PracticeStandIn],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view, engine = practice
    view.start_button.click()
    qtbot.waitUntil(lambda: view._card is not None)
    # The real passphrase question asks twice to export; a mismatch writes nothing.
    answers = iter([("first phrase", True), ("second phrase", True)])
    monkeypatch.setattr(practice_dialogs.QInputDialog, "getText", lambda *a, **k: next(answers))
    view.ask_export_path = lambda: tmp_path / "x"  # type: ignore[method-assign]
    view.export_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text() == "The two passphrases differ: nothing was exported."
    assert view._card is not None and "export_package" not in engine.calls
    assert list(tmp_path.iterdir()) == []

    view._card.items[0].reject.click()
    view._card.items[0].confirm_reject()
    qtbot.waitUntil(lambda: view.setup_row.isVisible() and view.import_button.isEnabled())
    view.ask_import_path = lambda: tmp_path / "missing.gns3exercise"  # type: ignore[method-assign]
    view.ask_passphrase = lambda confirm: "whatever it is"  # type: ignore[method-assign]
    view.import_button.click()
    qtbot.waitUntil(lambda: view.error_label.isVisible())
    assert view.error_label.text().startswith(f"Cannot read {tmp_path / 'missing.gns3exercise'}")
    assert "import_exercise" not in engine.calls
