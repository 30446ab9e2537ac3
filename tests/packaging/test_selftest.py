"""`gns3-copilot --self-test` from the source tree (test_bundle.py runs the bundled one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from langchain_openai import ChatOpenAI

from gns3_copilot_desktop.selftest import (
    CANNED_ANSWER,
    CANNED_TITLE,
    SELF_TEST_MESSAGE,
    LoopbackModelServer,
    UnreachableGns3,
)
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn
from tests.packaging.support import run_offscreen

RUN_TIMEOUT_S = 90.0


def run_self_test(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "gns3_copilot_desktop", "--self-test", *args]
    return run_offscreen(command, tmp, RUN_TIMEOUT_S)


def test_self_test_streams_a_turn_from_the_given_model_server(
    scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    answer = "Streamed by the scripted server to the self-test."
    scripted_openai.set_title_responder("Self-test")
    scripted_openai.push(ScriptedTurn.text(answer, chunks=4))
    result = run_self_test(
        "--model-base-url", scripted_openai.base_url, "--expect-answer", answer, tmp=tmp_path
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"the dock streamed: {answer}" in result.stdout
    calls = [r for r in scripted_openai.chat_requests() if r.tool_names]
    assert [r.last_user_text for r in calls] == [SELF_TEST_MESSAGE]
    assert list((tmp_path / "home").iterdir()) == []  # its files went to a temp folder, now gone


def test_self_test_reports_a_wrong_answer(
    scripted_openai: ScriptedOpenAIServer, tmp_path: Path
) -> None:
    scripted_openai.set_title_responder("Self-test")
    scripted_openai.push(ScriptedTurn.text("something else", chunks=2))
    result = run_self_test(
        "--model-base-url", scripted_openai.base_url, "--expect-answer", "the answer", tmp=tmp_path
    )
    assert result.returncode == 1
    assert "self-test: FAILED: streamed 'something else', expected 'the answer'" in result.stdout


def test_self_test_refuses_a_non_loopback_model(tmp_path: Path) -> None:
    result = run_self_test("--model-base-url", "https://api.example.com/v1", tmp=tmp_path)
    assert result.returncode == 1
    assert "loopback servers only" in result.stdout


@pytest.mark.asyncio
async def test_the_built_in_responder_speaks_openai_streaming() -> None:
    with LoopbackModelServer() as server:
        model = ChatOpenAI(
            model="self-test-model", base_url=server.base_url, api_key="x", max_retries=0
        )
        chunks = [c async for c in model.bind_tools([_tool_schema()]).astream("hi")]
        title = await model.ainvoke("title please")
    assert "".join(str(c.content) for c in chunks) == CANNED_ANSWER
    assert len(chunks) > 3
    assert title.content == CANNED_TITLE
    assert [bool(body.get("stream")) for body in server.requests] == [True, False]


def test_the_unreachable_gns3_server_refuses_at_once() -> None:
    import socket

    auth = UnreachableGns3()
    try:
        port = int(auth.base_url().rsplit(":", 1)[1])
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
        assert auth.token() is None and auth.username() is None
    finally:
        auth.close()


def _tool_schema() -> dict[str, object]:
    return {
        "type": "function",
        "function": {
            "name": "read_topology",
            "description": "Read the topology.",
            "parameters": {"type": "object", "properties": {}},
        },
    }
