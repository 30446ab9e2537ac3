"""A session database that arrives with a GNS3 project runs nothing.

Another computer's database is built with real turns (AgentService, langchain-openai, the scripted
model), then poisoned the three ways a checkpoint can name code: a msgpack extension naming a
module and function (``os.system`` and a marker function), a pickle, a forged LangChain JSON
constructor — in checkpoints and in pending writes. It travels inside a project through the REAL
GNS3 server's export and import routes. Then every path of the core API is walked: list, history,
pending approvals, search, export, resume, a new turn. A marker file appears if anything ran.
"""

from __future__ import annotations

import io
import json
import pickle
import secrets
import sqlite3
import uuid
import zipfile
from pathlib import Path
from typing import Any

import httpx
import ormsgpack
import pytest

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.service import AgentService
from gns3_copilot_desktop.core.gns3 import Gns3Client, Project
from gns3_copilot_desktop.core.sessions.export import export_json
from gns3_copilot_desktop.core.sessions.location import DB_NAME, PROJECT_SUBDIR
from gns3_copilot_desktop.core.sessions.ownership import Ownership, ownership, read_foreign_sessions
from tests.helpers.agent import Lab, collect, run_context, types_of
from tests.helpers.gns3_server import Gns3Server
from tests.helpers.planted import Boom, PickleBomb, boom
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

OUR_KEY = secrets.token_bytes(32)
THEIR_KEY = secrets.token_bytes(32)


def _raw_ext(code: int, data: bytes) -> ormsgpack.Ext:
    return ormsgpack.Ext(code, data)


def _poison(db: Path, markers: dict[str, Path]) -> None:
    """Plant code references in the newest checkpoint of each session (and its writes)."""
    conn = sqlite3.connect(db)
    try:
        threads = [r[0] for r in conn.execute("SELECT DISTINCT thread_id FROM checkpoints")]
        assert len(threads) >= 3, threads
        ext_thread, pickle_thread, json_thread = threads[:3]
        # 1. a msgpack extension naming a module and a callable, inside a real checkpoint
        row = conn.execute(
            "SELECT checkpoint_id, checkpoint FROM checkpoints WHERE thread_id=? "
            "ORDER BY checkpoint_id DESC LIMIT 1",
            (ext_thread,),
        ).fetchone()
        checkpoint = ormsgpack.unpackb(row[1], ext_hook=_raw_ext)
        planted = [
            ormsgpack.Ext(0, ormsgpack.packb(["os", "system", f"touch {markers['os']}"])),
            ormsgpack.Ext(0, ormsgpack.packb([boom.__module__, "boom", str(markers["ext"])])),
        ]
        checkpoint["channel_values"]["topology"] = planted
        conn.execute(
            "UPDATE checkpoints SET checkpoint=? WHERE thread_id=? AND checkpoint_id=?",
            (ormsgpack.packb(checkpoint), ext_thread, row[0]),
        )
        conn.execute(
            "UPDATE writes SET type='msgpack', value=? WHERE thread_id=?",
            (ormsgpack.packb(planted), ext_thread),
        )
        # 2. a pickle
        bomb = pickle.dumps(PickleBomb(str(markers["pickle"])))
        conn.execute("UPDATE checkpoints SET type='pickle', checkpoint=? WHERE thread_id=?",
                     (bomb, pickle_thread))  # fmt: skip
        conn.execute("UPDATE writes SET type='pickle', value=? WHERE thread_id=?",
                     (bomb, pickle_thread))  # fmt: skip
        # 3. a forged LangChain constructor
        forged = json.dumps(
            {"lc": 2, "type": "constructor", "id": [*Boom.__module__.split("."), "Boom"],
             "kwargs": {"path": str(markers["json"])}}
        ).encode()  # fmt: skip
        conn.execute("UPDATE checkpoints SET type='json', checkpoint=? WHERE thread_id=?",
                     (forged, json_thread))  # fmt: skip
        conn.commit()
    finally:
        conn.close()


async def _build_their_database(
    db: Path, lab: Lab, model: ScriptedOpenAIServer, markers: dict[str, Path]
) -> list[str]:
    """Three sessions with real turns, one left waiting for an approval, then poisoned."""
    service = await AgentService.open(db, project_id=lab.project.project_id, owner_key=THEIR_KEY)
    sessions = []
    try:
        for i in range(3):
            info = await service.create_session(f"Their session {i}")
            model.push(ScriptedTurn.text(f"Answer number {i} about the lab."))
            await collect(
                service.stream_chat(
                    f"Question {i}", info.id, context=run_context(lab, model.chat_model())
                )
            )
            sessions.append(info.id)
    finally:
        await service.close()
    _poison(db, markers)
    return sessions


async def _export_import(server: Gns3Server, token: str, project: Project) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    base = f"{server.base_url}/v3/projects"
    async with httpx.AsyncClient(headers=headers, timeout=60) as http:
        await http.post(f"{base}/{project.project_id}/close")
        exported = await http.get(
            f"{base}/{project.project_id}/export", params={"compression": "zip"}
        )
        exported.raise_for_status()
        names = zipfile.ZipFile(io.BytesIO(exported.content)).namelist()
        assert any(".gns3-copilot/" in n for n in names), names  # the database travels
        new_id = str(uuid.uuid4())
        imported = await http.post(
            f"{base}/{new_id}/import", params={"name": f"imported-{new_id[:6]}"},
            content=exported.content,
        )  # fmt: skip
        imported.raise_for_status()
        opened = await http.post(f"{base}/{new_id}/open")
        opened.raise_for_status()
        return dict(imported.json())


def _nothing_ran(markers: dict[str, Path]) -> None:
    assert not [name for name, path in markers.items() if path.exists()]


@pytest.fixture
def markers(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "markers"
    folder.mkdir()
    return {name: folder / name for name in ("os", "ext", "pickle", "json")}


async def test_an_imported_project_database_is_foreign_and_runs_nothing(
    lab: Lab,
    gns3_server: Gns3Server,
    gns3_token: str,
    gns3_client: Gns3Client,
    scripted_openai: ScriptedOpenAIServer,
    markers: dict[str, Path],
    tmp_path: Path,
) -> None:
    scripted_openai.set_title_responder("Their title")
    project = await gns3_client.get_project(lab.project.project_id)
    assert project.path
    # where older versions kept it, inside the project folder (it travels with an export)
    theirs = Path(project.path) / PROJECT_SUBDIR / DB_NAME
    theirs.parent.mkdir(exist_ok=True)
    await _build_their_database(theirs, lab, scripted_openai, markers)

    imported = await _export_import(gns3_server, gns3_token, project)
    try:
        arrived = Path(imported["path"]) / PROJECT_SUBDIR / DB_NAME
        assert arrived.is_file() and ownership(arrived, OUR_KEY) is Ownership.FOREIGN
        before = arrived.read_bytes()

        service = await AgentService.open(
            arrived, project_id=imported["project_id"], owner_key=OUR_KEY
        )
        try:
            # the user is told; the foreign file is left exactly as it came; ours is beside it
            assert [n.kind for n in service.store.notices] == ["foreign"]
            assert "another computer" in service.store.notices[0].text
            assert service.store.foreign_db == arrived and service.store.db_path != arrived
            assert service.store.db_path.parent == arrived.parent
            assert await service.list_sessions() == []
            # their conversations can be read, as plain text only
            read = read_foreign_sessions(arrived)
            assert sorted(s.title for s in read) == [f"Their session {i}" for i in range(3)]
            assert any("Answer number 1" in m.content for s in read for m in s.messages)
            # and a new turn works, in a database of ours
            info = await service.create_session()
            scripted_openai.push(ScriptedTurn.text("Fresh start."))
            ctx = run_context(lab, scripted_openai.chat_model())
            chunks = await collect(service.stream_chat("Hello", info.id, context=ctx))
            assert types_of(chunks)[-1] == "done" and "error" not in types_of(chunks)
        finally:
            await service.close()
        assert arrived.read_bytes() == before
        assert ownership(service.store.db_path, OUR_KEY) is Ownership.OURS
        _nothing_ran(markers)
    finally:
        async with httpx.AsyncClient(headers={"Authorization": f"Bearer {gns3_token}"}) as http:
            await http.delete(f"{gns3_server.base_url}/v3/projects/{imported['project_id']}")


async def test_a_poisoned_checkpoint_is_refused_on_every_path(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, markers: dict[str, Path], tmp_path: Path
) -> None:
    """The second line of defence: a database opened as ours (e.g. tampered with on this
    computer) still rebuilds nothing it names."""
    scripted_openai.set_title_responder("Their title")
    db = tmp_path / "poisoned.db"
    sessions = await _build_their_database(db, lab, scripted_openai, markers)
    service = await AgentService.open(db, project_id=lab.project.project_id)
    ctx = run_context(lab, scripted_openai.chat_model())
    try:
        assert {s.id for s in await service.list_sessions()} >= set(sessions)
        assert [h.session_id for h in await service.search_sessions("Answer number")]
        for sid in sessions:
            history = await service.get_history(sid)
            assert history.messages[0].content.startswith("Question")
            assert await service.pending_approvals(sid) == []
            assert export_json(await service.store.get_session(sid), history.messages)
            # a new turn and a resume refuse the saved state, with a clear message (the model is
            # not even asked: an unexpected request would fail the scripted server's check)
            chunks = await collect(service.stream_chat("Go on", sid, context=ctx))
            errors = [c for c in chunks if c.type == "error"]
            assert types_of(chunks)[-1] == "done" and errors, types_of(chunks)
            assert "never writes" in (errors[0].error or "")
            resumed = await collect(
                service.resume(
                    sid, [ApprovalDecision(tool_call_id="x", action="approve")], context=ctx
                )
            )
            assert types_of(resumed)[-1] == "done"
        _nothing_ran(markers)
        # and a new session works
        info = await service.create_session()
        scripted_openai.push(ScriptedTurn.text("A clean answer."))
        fresh = await collect(service.stream_chat("Hello", info.id, context=ctx))
        assert "error" not in types_of(fresh)
    finally:
        await service.close()
    _nothing_ran(markers)
