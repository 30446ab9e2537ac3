"""A trainer's exercise files: export a prepared exercise for students, import one, start it.

An export is the exercise and the lab in one file, encrypted with a passphrase and signed with
the trainer's key; an import asks to trust a trainer's key the first time (then pins it), opens
the file with the passphrase and keeps the exercise beside the imported project's conversations.
The panel's dialogs (`ask_passphrase`, `ask_export_path`, `ask_import_path`, `ask_trust`) are
called through the panel, where tests answer them. Texts keep the "PracticePanel" context.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from PyQt6 import sip
from PyQt6.QtCore import QCoreApplication

from gns3_copilot_desktop.core.practice import package
from gns3_copilot_desktop.core.practice.engine import LabStoppedError
from gns3_copilot_desktop.core.practice.package import SUFFIX
from gns3_copilot_desktop.core.practice.store import PracticeError
from gns3_copilot_desktop.core.practice.trust import TrainerKeys
from gns3_copilot_desktop.ui.backends.base import practice_engine
from gns3_copilot_desktop.ui.qt_async import modal

if TYPE_CHECKING:
    from gns3_copilot_desktop.ui.practice.panel import PracticePanel
    from gns3_copilot_desktop.ui.practice.starting import ExerciseStart


class ExerciseFiles:
    """What the trainer row's buttons do."""

    def __init__(self, panel: PracticePanel, backend: object, starting: ExerciseStart) -> None:
        self._panel = panel
        self._backend = backend
        self._starting = starting

    async def show_imported(self) -> None:
        """Offer to start the trainer's exercise when one waits in this project."""
        engine = self._panel.engine
        waiting = await engine.imported_exercise() if engine is not None else None
        self._panel.trainer_row.show_imported(waiting is not None)

    async def start_imported(self) -> None:
        """Prepare the imported exercise on the lab and offer it for approval."""
        panel = self._panel
        if panel.session_id is None:
            return
        session_id = panel.session_id

        async def prepare() -> None:
            assert panel.engine is not None
            try:
                plan = await panel.engine.prepare_imported(session_id)
            except LabStoppedError:
                panel.trainer_row.show_start_lab(True)  # the lab arrived stopped: offer to start it
                raise
            panel.trainer_row.show_imported(False)
            self._starting.offer(plan.exercise_id, plan.approval)

        await panel.guarded(
            QCoreApplication.translate("PracticePanel", "Reading the lab and checking it works…"),
            prepare,
        )

    async def start_lab(self) -> None:
        """Start the stopped lab of the waiting exercise (the user's own Start), then prepare
        the exercise on it."""
        panel = self._panel

        async def start() -> None:
            assert panel.engine is not None
            await panel.engine.start_lab()

        started = await panel.guarded(
            QCoreApplication.translate("PracticePanel", "Starting the lab…"), start
        )
        if started and not sip.isdeleted(panel):
            panel.trainer_row.show_start_lab(False)
            await self.start_imported()

    async def export(self) -> None:
        """Write the prepared exercise, encrypted and signed, where the trainer chooses."""
        panel = self._panel
        exercise_id = panel.exercise_id
        if exercise_id is None:
            return
        passphrase = await modal(lambda: panel.ask_passphrase(True))
        if passphrase is None:
            return
        path = await modal(panel.ask_export_path)
        if path is None:
            return
        target = path if path.suffix == SUFFIX else path.with_name(path.name + SUFFIX)

        async def export() -> None:
            assert panel.engine is not None
            signer = await self._keys().signer(panel.trainer_name())
            data = await panel.engine.export_package(exercise_id, passphrase, signer)
            await asyncio.to_thread(write_file, target, data)
            panel.status.say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "Exported to %1, signed by %2 (key fingerprint %3). Give students the file "
                    "and, separately, the passphrase; tell them the fingerprint so that they can "
                    "check it on their first import. The file is sealed against casual reading, "
                    "not against a student who holds it with the passphrase: for graded work, "
                    "use your class's copilot service (Class).",
                )
                .replace("%1", str(target))
                .replace("%2", signer.trainer)
                .replace("%3", signer.public.fingerprint)
            )

        await panel.guarded(
            QCoreApplication.translate(
                "PracticePanel",
                "Trying each fault on the lab, then stopping the lab to export it… (it starts "
                "again after)",
            ),
            export,
        )

    async def import_(self) -> None:
        """Open an exercise file: its lab becomes a new project, its exercise waits there."""
        panel = self._panel
        path = await modal(panel.ask_import_path)
        if path is None:
            return
        passphrase = await modal(lambda: panel.ask_passphrase(False))
        if passphrase is None:
            return

        async def import_() -> None:
            assert panel.engine is not None
            try:
                data = await asyncio.to_thread(path.read_bytes)
            except OSError as exc:
                raise PracticeError(
                    QCoreApplication.translate("PracticePanel", "Cannot read %1: %2")
                    .replace("%1", str(path))
                    .replace("%2", exc.strerror or str(exc))
                ) from exc
            keys = self._keys()
            signer = await asyncio.to_thread(package.signer_of, data)
            trusted = await keys.trusted(signer.trainer)
            first_use = trusted is None
            if trusted is None:
                if not await panel.ask_trust(signer):
                    panel.status.say(
                        QCoreApplication.translate(
                            "PracticePanel", "Not imported: the trainer's key was not trusted."
                        )
                    )
                    return
                trusted = signer
            project, exercise = await panel.engine.import_exercise(data, passphrase, trusted)
            if first_use:  # pinned once the file opened with the class passphrase
                await keys.pin(trusted)
            # kept beside the new project's own conversations, where its sessions will look
            target = await practice_engine(self._backend, project.project_id)
            if target is None:
                raise PracticeError(
                    QCoreApplication.translate(
                        "PracticePanel", "Exercises run only with the local agent."
                    )
                )
            await target.keep_imported(exercise)
            panel.status.say(
                QCoreApplication.translate(
                    "PracticePanel",
                    "The lab was imported as the project “%1”. Open it in GNS3, then start the "
                    "trainer's exercise from a Practice session there.",
                ).replace("%1", project.name)
            )

        await panel.guarded(
            QCoreApplication.translate("PracticePanel", "Importing the exercise…"), import_
        )

    def _keys(self) -> TrainerKeys:
        keys = self._panel.trainer_keys
        if keys is None:
            raise PracticeError(
                QCoreApplication.translate(
                    "PracticePanel", "Exercise files need the local agent's keyring and settings."
                )
            )
        return keys


def trainer_keys_of(backend: object) -> TrainerKeys | None:
    """The local agent's keyring and settings as the trainer keys (a remote backend has none)."""
    workspace = getattr(backend, "workspace", None)
    if workspace is None:
        return None
    return TrainerKeys(workspace.secrets, workspace.settings, workspace.save_settings)


def write_file(path: Path, data: bytes) -> None:
    """Write next to the target, then move it in place: a failed write leaves no half file."""
    partial = path.with_name(path.name + ".part")
    try:
        partial.write_bytes(data)
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise PracticeError(
            QCoreApplication.translate("PracticePanel", "Cannot write %1: %2")
            .replace("%1", str(path))
            .replace("%2", exc.strerror or str(exc))
        ) from exc
