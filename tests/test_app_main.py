"""app.py's process-wide set-up: tracing inherited from the environment is turned off.

(The translator and the start-up heap freeze are tested in tests/ui/test_translations.py and
tests/ui/chat/test_streaming_cost.py.)
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop import app


@pytest.mark.parametrize("name", ["LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2"])
def test_inherited_tracing_is_turned_off(name: str) -> None:
    env = {name: "true", "PATH": "/usr/bin"}
    assert app.keep_conversations_local(env) == [name]
    assert env[name] == "false" and env["LANGSMITH_TRACING"] == "false"
    assert env["PATH"] == "/usr/bin"
    assert app.keep_conversations_local({"LANGSMITH_TRACING": "false"}) == []
