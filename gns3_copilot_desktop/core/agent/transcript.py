"""Conversion of LangChain messages to the transcript's OpenAI-shaped messages, and back."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel

from gns3_copilot_desktop.core.protocol import FunctionCall, ToolCall
from gns3_copilot_desktop.core.sessions.models import TranscriptMessage


class ConversationHistory(BaseModel):
    """``get_history``'s answer: a session's messages in OpenAI's shape, oldest first."""

    session_id: str
    messages: list[TranscriptMessage]


def to_transcript(message: AnyMessage) -> TranscriptMessage:
    """One LangChain message as a transcript message (ids are kept)."""
    base: dict[str, Any] = {"content": message.text}
    if message.id:
        base["id"] = message.id
    if isinstance(message, HumanMessage):
        return TranscriptMessage(role="user", **base)
    if isinstance(message, ToolMessage):
        meta = dict(message.response_metadata)
        if message.artifact is not None:
            meta["structured"] = message.artifact
        return TranscriptMessage(
            role="tool",
            tool_call_id=message.tool_call_id,
            name=message.name,
            metadata=meta,
            **base,
        )
    if isinstance(message, AIMessage):
        return TranscriptMessage(
            role="assistant", tool_calls=ai_tool_calls(message), metadata=_ai_meta(message), **base
        )
    if isinstance(message, SystemMessage):
        return TranscriptMessage(role="system", **base)
    return TranscriptMessage(role="assistant", **base)


def ai_tool_calls(message: AIMessage) -> list[ToolCall]:
    """The tool calls of an assistant message (invalid ones too) in OpenAI's shape."""
    calls = [
        ToolCall(
            id=c.get("id") or "",
            function=FunctionCall(
                name=c["name"], arguments=json.dumps(c["args"], ensure_ascii=False)
            ),
        )
        for c in message.tool_calls
    ]
    calls += [
        ToolCall(
            id=c.get("id") or "",
            function=FunctionCall(name=c.get("name") or "", arguments=c.get("args") or ""),
        )
        for c in message.invalid_tool_calls
    ]
    return calls


def _ai_meta(message: AIMessage) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    if message.usage_metadata:
        meta["usage"] = {
            "input_tokens": message.usage_metadata["input_tokens"],
            "output_tokens": message.usage_metadata["output_tokens"],
        }
    incomplete = message.response_metadata.get("incomplete")
    if incomplete:
        meta["incomplete"] = incomplete
    return meta
