"""Two app instances on one project: a turn in a session that another process is
running is refused with a clear message, nothing of either is lost; a claim left by a process
that died does not block the session."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.agent.service import AgentService
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context, text_of, types_of
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio]

ROOT = Path(__file__).resolve().parents[3]


def _second_instance(
    db: Path, session: str, lab: Lab, model: ScriptedOpenAIServer, ready: Path
) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            sys.executable, "-m", "tests.helpers.second_instance", str(db), session,
            lab.client.base_url, lab.client.token or "", lab.project.project_id,
            model.base_url, model.client_api_key, str(ready),
        ],
        cwd=ROOT, env=env, stderr=subprocess.PIPE,
    )  # fmt: skip


def _wait_for(path: Path, process: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not path.exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else b""
        assert time.monotonic() < deadline, "the other instance did not start its turn"
        time.sleep(0.05)


async def test_a_turn_running_in_another_process_refuses_ours(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    tmp_path: Path,
) -> None:
    db = tmp_path / "shared.db"
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.stalled("The other app answers", timeout_s=60))
    service = await make_service(db)
    session = await service.create_session()
    ready = tmp_path / "ready"
    other = _second_instance(db, session.id, lab, scripted_openai, ready)
    try:
        _wait_for(ready, other)
        ctx = run_context(lab, scripted_openai.chat_model())

        refused = await collect(service.stream_chat("mine", session.id, context=ctx))

        assert types_of(refused) == ["error", "done"]
        assert refused[0].error_kind == "busy"
        assert "Another GNS3 Copilot" in (refused[0].error or "")
        assert "nothing was sent" in (refused[0].error or "")
    finally:
        scripted_openai.release_stall()
        assert other.wait(timeout=60) == 0
    # the other app's turn is whole, and ours goes through now
    scripted_openai.push(ScriptedTurn.text("Now it is my turn."))
    chunks = await collect(service.stream_chat("mine again", session.id, context=ctx))
    assert text_of(chunks) == "Now it is my turn."
    texts = [m.content for m in (await service.get_history(session.id)).messages]
    assert texts[:2] == ["from the other app", "The other app answers"]
    assert "mine" not in texts and texts[-2:] == ["mine again", "Now it is my turn."]


async def test_a_claim_left_by_a_process_that_died_does_not_block(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
    tmp_path: Path,
) -> None:
    db = tmp_path / "shared.db"
    scripted_openai.set_title_responder()
    scripted_openai.push(ScriptedTurn.stalled("Never finished", timeout_s=60))
    service = await make_service(db)
    session = await service.create_session()
    ready = tmp_path / "ready"
    other = _second_instance(db, session.id, lab, scripted_openai, ready)
    _wait_for(ready, other)
    os.kill(other.pid, signal.SIGKILL)  # the other app crashed mid-turn
    other.wait(timeout=30)
    scripted_openai.release_stall()

    scripted_openai.push(ScriptedTurn.text("Still here."))
    ctx = run_context(lab, scripted_openai.chat_model())
    chunks = await collect(service.stream_chat("hello?", session.id, context=ctx))
    assert "error" not in types_of(chunks) and text_of(chunks) == "Still here."


async def test_a_service_whose_caller_claims_its_turns_takes_no_lease_of_its_own(
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> None:
    """The Chat API service on PostgreSQL claims every turn in its replicas' shared state, so
    its agents take no second lease (`claims_turns=False`); a default agent meets the lease
    another instance holds."""
    scripted_openai.set_title_responder()
    service = await make_service()
    session = await service.create_session()
    # a live lease of another instance (this process's host and PID: it counts as alive)
    assert await service.store.claim_turn(session.id, "another-instance") is None
    ctx = run_context(lab, scripted_openai.chat_model())
    refused = await collect(service.stream_chat("mine", session.id, context=ctx))
    assert refused[0].error_kind == "busy", refused
    trusting = AgentService(service.store, claims_turns=False)
    scripted_openai.push(ScriptedTurn.text("Answered under the caller's claim."))
    chunks = await collect(trusting.stream_chat("mine", session.id, context=ctx))
    assert text_of(chunks) == "Answered under the caller's claim."
    # and the other instance's lease is untouched: its holder still refuses a default agent
    assert await service.store.claim_turn(session.id, "a-third-instance") is not None
