"""The context budget of a model call: computed from the call's real numbers, the last exchanges
always kept, and fewer tools (with a notice) when a small window cannot hold them all.

The turns run through the real AgentService, langchain-openai client and GNS3 server; the scripted
model's recorded requests show what the model was sent.
"""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.budget import plan_call, schema_tokens
from gns3_copilot_desktop.core.agent.context import limits_for
from gns3_copilot_desktop.core.agent.model_factory import LlmConfig
from gns3_copilot_desktop.core.agent.tools.network import network_registry
from tests.helpers.agent import Lab, ServiceFactory, collect, run_context
from tests.helpers.scripted_openai import ScriptedOpenAIServer, ScriptedTurn

ALL_TOOLS = schema_tokens(network_registry().openai_schemas())
READ_TOOLS = schema_tokens(
    [
        s
        for s in network_registry().openai_schemas()
        if s["function"]["name"] in {t.name for t in network_registry() if t.risk == "read"}
    ]
)
ANSWER = 256


def test_the_answer_reserve_is_the_profiles_own_limit() -> None:
    small = limits_for(LlmConfig(provider="ollama", model="m", context_window=8192, max_tokens=512))
    assert (small.context_window, small.max_output_tokens) == (8192, 512)
    unset = limits_for(LlmConfig(provider="ollama", model="m", context_window=8192))
    assert unset.max_output_tokens == 2048  # a quarter of the window, not a fixed 4,096
    default = limits_for(LlmConfig(provider="openai", model="gpt-4o-mini"))
    assert (default.context_window, default.max_output_tokens) == (128_000, 4096)


def test_the_plan_keeps_the_last_exchanges_before_the_tools() -> None:
    common = {"answer_tokens": 512, "system_tokens": 900, "needed_history_tokens": 400}
    sizes = {"all_tools_tokens": 5000, "read_tools_tokens": 900, "tool_count": 25}
    roomy = plan_call(context_window=128_000, **common, **sizes)
    assert roomy.tool_set == "all" and roomy.notice is None
    assert roomy.history_tokens == 128_000 - 512 - 900 - 5000
    eight_k = plan_call(context_window=8192, **common, **sizes)
    assert eight_k.tool_set == "all" and eight_k.history_tokens == 8192 - 512 - 900 - 5000
    tight = plan_call(context_window=6000, **common, **sizes)
    assert tight.tool_set == "read" and tight.history_tokens >= 400
    assert tight.notice and "6,000" in tight.notice and "25 tools" in tight.notice
    tiny = plan_call(context_window=2000, **common, **sizes)
    assert tiny.tool_set == "none" and tiny.notice and "without tools" in tiny.notice


@pytest.mark.gns3
@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("window", "tools_sent", "noticed"),
    # the windows leave no room for the system prompt beside all the tools / the read tools
    [(8192, "all", False), (ALL_TOOLS + ANSWER, "read", True), (READ_TOOLS + ANSWER, "none", True)],
)
async def test_a_small_window_keeps_the_earlier_turn_and_says_what_it_left_out(
    window: int,
    tools_sent: str,
    noticed: bool,
    lab: Lab,
    scripted_openai: ScriptedOpenAIServer,
    make_service: ServiceFactory,
) -> None:
    scripted_openai.set_title_responder("Small window")
    scripted_openai.push(
        ScriptedTurn.text("Your lab has two PCs, PC1 and PC2, linked together."),
        ScriptedTurn.text("You asked what is in your lab."),
    )
    service = await make_service(project_id=lab.project.project_id, tools=network_registry())
    session = await service.create_session()
    ctx = run_context(
        lab, scripted_openai.chat_model(), context_window=window, max_output_tokens=ANSWER
    )
    await collect(service.stream_chat("What is in my lab, in one line?", session.id, context=ctx))
    second = await collect(service.stream_chat("What did I ask before?", session.id, context=ctx))

    request = [r for r in scripted_openai.chat_requests() if r.turn_label != "title"][-1]
    # the model sees the earlier turn, whatever the window
    assert "What is in my lab, in one line?" in request.all_text()
    assert "two PCs, PC1 and PC2" in request.all_text()
    names = set(request.tool_names)
    if tools_sent == "all":
        assert len(names) == len(network_registry().names())
    elif tools_sent == "read":
        assert names and "get_topology" in names
        assert not names & {"create_nodes", "delete_nodes", "configure_devices"}
    else:
        assert not names
    notices = [c.notice for c in second if c.type == "usage" and c.notice]
    assert bool(notices) is noticed
