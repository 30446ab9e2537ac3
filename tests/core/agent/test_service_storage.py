"""Secrets never reach disk; several services share a DB; sessions survive a reopen."""

from __future__ import annotations

import asyncio
import logging
import secrets
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.logs import setup_logging, teardown_logging
from gns3_copilot_desktop.core.settings import LlmProfile, ServerProfile, Settings, SettingsStore
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, text_of, types_of
from tests.helpers.scripted_openai import (
    ScriptedOpenAIServer,
    ScriptedTurn,
    is_title_request,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]


class _RawRecords(logging.Handler):
    """Every record as formatted before any redaction (installed first on the root logger)."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _files_of(db: Path) -> list[Path]:
    return [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]


def _assert_absent(paths: list[Path], needles: list[str]) -> None:
    for path in paths:
        data = path.read_bytes()
        for needle in needles:
            assert needle.encode() not in data, f"a secret was written to {path.name}"


async def test_jwt_and_api_key_never_reach_db_log_or_settings(
    lab: Lab, make_service: ServiceFactory, tmp_path: Path
) -> None:
    api_key = f"sk-leaktest-{secrets.token_hex(16)}"
    jwt = lab.client.token
    assert jwt and jwt.count(".") == 2
    needles = [api_key, jwt, jwt.split(".")[2]]
    server = ScriptedOpenAIServer(api_key=api_key).start()
    raw = _RawRecords()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(raw)
    log_file = setup_logging(tmp_path / "logs", logging.DEBUG)
    settings_path = tmp_path / "settings.json"
    try:
        SettingsStore(settings_path).save(
            Settings(
                servers=[ServerProfile(url=lab.client.base_url, username="admin")],
                llm_profiles=[
                    LlmProfile(
                        id="p1",
                        name="scripted",
                        provider="openai",
                        model="gpt-4o-mini",
                        base_url=server.base_url,
                    )
                ],
                active_llm_profile="p1",
            )
        )
        server.set_title_responder("Secret-free title")
        server.push(ScriptedTurn.tool("get_topology", {}), ScriptedTurn.text("Two PCs."))
        server.push(ScriptedTurn.tool("list_projects", {}), ScriptedTurn.text("One project."))
        db = tmp_path / "copilot.db"
        service = await make_service(db)
        session = await service.create_session()
        ctx = run_context(lab, server.chat_model(api_key=api_key))
        for question in ("What is in the lab?", "Which projects?"):
            chunks = await collect(service.stream_chat(question, session.id, context=ctx))
            assert "error" not in types_of(chunks), [c.error for c in chunks]
            assert all(api_key not in c.to_json() and jwt not in c.to_json() for c in chunks)
        assert server.chat_requests()[0].api_key == api_key  # the key was really used
        _assert_absent(_files_of(db), needles)  # while open: db, -wal, -shm
        await service.close()
    finally:
        teardown_logging()
        root.removeHandler(raw)
        root.setLevel(old_level)
        server.stop()
    assert not server.errors
    files = [*_files_of(db), log_file, settings_path]
    assert db.exists() and log_file.stat().st_size > 0 and settings_path.exists()
    _assert_absent(files, needles)
    ours = [line for line in raw.lines if api_key in line or jwt in line]
    assert ours == []


async def test_two_services_on_one_db_at_once(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, tmp_path: Path
) -> None:
    scripted_openai.set_title_responder(lambda r: f"Title {r.last_user_text[-1]}")
    for name in ("A", "B"):
        scripted_openai.push(
            ScriptedTurn.tool(
                "list_projects", {}, match=lambda r, n=name: r.last_user_text == f"from {n}"
            ),
            ScriptedTurn.text(
                f"answer {name}",
                chunk_delay_s=0.01,
                match=lambda r, n=name: r.last_user_text == f"from {n}" and not is_title_request(r),
            ),
        )
    db = tmp_path / "shared.db"
    first, second = await make_service(db), await make_service(db)
    sa, sb = await first.create_session(), await second.create_session()
    ctx = run_context(lab, scripted_openai.chat_model())

    got_a, got_b = await asyncio.gather(
        collect(first.stream_chat("from A", sa.id, context=ctx)),
        collect(second.stream_chat("from B", sb.id, context=ctx)),
    )

    assert text_of(got_a) == "answer A" and text_of(got_b) == "answer B"
    assert "error" not in types_of(got_a) + types_of(got_b)
    for service in (first, second):
        listed = {s.id: s for s in await service.list_sessions()}
        assert set(listed) == {sa.id, sb.id}
        assert listed[sa.id].message_count == listed[sb.id].message_count == 4
    history_b = await first.get_history(sb.id)
    assert [m.content for m in history_b.messages if m.role == "user"] == ["from B"]


async def test_history_and_sessions_after_reopening_the_db(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory, tmp_path: Path
) -> None:
    scripted_openai.set_title_responder("Réseau du labo")
    scripted_openai.push(ScriptedTurn.tool("get_topology", {}), ScriptedTurn.text("Deux PC."))
    db = tmp_path / "reopen.db"
    service = await make_service(db)
    session = await service.create_session()
    other = await service.create_session(title="Pinned one")
    await service.set_pinned(other.id, True)
    ctx = run_context(lab, scripted_openai.chat_model())
    await collect(service.stream_chat("Qu'y a-t-il dans mon labo ?", session.id, context=ctx))
    before = await service.get_history(session.id)
    await service.close()

    reopened = await make_service(db)
    listed = await reopened.list_sessions()
    assert [s.id for s in listed] == [other.id, session.id]  # pinned first
    assert listed[1].title == "Réseau du labo" and listed[1].message_count == 4
    after = await reopened.get_history(session.id)
    assert after == before
    assert [m.role for m in after.messages] == ["user", "assistant", "tool", "assistant"]
    hits = await reopened.search_sessions("labo")
    assert [h.session_id for h in hits] == [session.id]
    last_two = await reopened.get_history(session.id, limit=2)
    assert last_two.messages == after.messages[-2:]

    # The conversation goes on where it was: the model sees the earlier turn.
    scripted_openai.push(ScriptedTurn.text("Toujours deux."))
    chunks = await collect(reopened.stream_chat("Et maintenant ?", session.id, context=ctx))
    assert text_of(chunks) == "Toujours deux." and "title" not in types_of(chunks)
    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    assert [m["role"] for m in request.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    await reopened.rename_session(session.id, "Renamed")
    await reopened.delete_session(other.id)
    assert [(s.id, s.title) for s in await reopened.list_sessions()] == [(session.id, "Renamed")]


async def test_working_state_stays_bounded_while_the_transcript_keeps_all(
    lab: Lab, scripted_openai: ScriptedOpenAIServer, make_service: ServiceFactory
) -> None:
    scripted_openai.set_title_responder()
    scripted_openai.default_turn = ScriptedTurn.text("x" * 400)
    service = await make_service()
    session = await service.create_session()
    ctx = run_context(lab, scripted_openai.chat_model(), max_working_messages=6)
    for n in range(8):
        chunks = await collect(service.stream_chat(f"question {n}", session.id, context=ctx))
        assert "error" not in types_of(chunks)
    history = await service.get_history(session.id)
    assert len(history.messages) == 16
    request = scripted_openai.chat_requests()[-1]
    users = [m["content"] for m in request.messages if m["role"] == "user"]
    # At most 6 older messages (3 turns) were kept, plus the new question.
    assert users == ["question 4", "question 5", "question 6", "question 7"]
    assert "older messages of this conversation are not shown" not in request.system_prompt
