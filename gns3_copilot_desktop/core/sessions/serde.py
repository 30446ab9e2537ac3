"""The checkpoint serializer: it rebuilds only the types our graph state holds.

LangGraph's default serializer rebuilds an object by importing the module and calling the name
written in the checkpoint. A session database travels inside GNS3 project exports, so a shared
project could name ``os.system`` and have it run when the app read the session. This serializer
writes what LangGraph writes (msgpack) but reads back only:

- plain msgpack values (``null``, bytes, numbers, strings, lists, maps);
- the classes in `ALLOWED_TYPES`, each built with keyword arguments only (pydantic validates them);
- ``datetime.fromisoformat``.

Everything else — a pickle, a LangChain JSON constructor, any other module and name, another
method — raises `UnreadableCheckpointError` before anything is imported, and the session is
reported unreadable instead of run.
"""

from __future__ import annotations

import datetime
import uuid
from typing import Any

import ormsgpack
from langchain_core.messages import (
    AIMessage,
    AIMessageChunk,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.types import Interrupt, Send

from gns3_copilot_desktop.core.errors import SessionStoreError

__all__ = ["ALLOWED_TYPES", "StrictSerializer", "UnreadableCheckpointError"]

# LangGraph's msgpack extension codes (langgraph.checkpoint.serde.jsonplus).
_EXT_SINGLE_ARG, _EXT_POS_ARGS, _EXT_KW_ARGS, _EXT_METHOD = 0, 1, 2, 3
_EXT_PYDANTIC_V1, _EXT_PYDANTIC_V2, _EXT_DELTA = 4, 5, 7

ALLOWED_TYPES: dict[tuple[str, str], Any] = {
    (cls.__module__, cls.__name__): cls
    for cls in (
        HumanMessage,
        AIMessage,
        AIMessageChunk,
        SystemMessage,
        ToolMessage,
        RemoveMessage,
        Interrupt,
        Send,
        datetime.datetime,
        datetime.date,
        datetime.time,
        datetime.timedelta,
        datetime.timezone,
        uuid.UUID,
    )
}
_ALLOWED_METHODS = {("datetime", "datetime", "fromisoformat")}
_PLAIN_TYPES = ("null", "bytes", "bytearray", "msgpack")


class UnreadableCheckpointError(SessionStoreError):
    """A checkpoint holds something this app never writes: it is refused, not rebuilt."""


def _refuse(what: str) -> UnreadableCheckpointError:
    return UnreadableCheckpointError(
        f"This conversation's saved state holds {what}, which this app never writes; it was not "
        "loaded. The conversation was probably made elsewhere or altered."
    )


def _unpack(data: bytes) -> Any:
    return ormsgpack.unpackb(data, ext_hook=_ext_hook, option=ormsgpack.OPT_NON_STR_KEYS)


def _allowed(module: object, name: object) -> Any:
    cls = ALLOWED_TYPES.get((str(module), str(name)))
    if cls is None:
        raise _refuse(f"an object of type {module}.{name}")
    return cls


def _ext_hook(code: int, data: bytes) -> Any:
    if code == _EXT_DELTA:
        raise _refuse("a delta snapshot")
    parts = _unpack(data)
    if not isinstance(parts, list | tuple) or len(parts) < 3:
        raise _refuse("a malformed object")
    module, name, payload = parts[0], parts[1], parts[2]
    if code == _EXT_METHOD:
        method = parts[3] if len(parts) > 3 else None
        if (module, name, method) not in _ALLOWED_METHODS or not isinstance(payload, str):
            raise _refuse(f"a call of {module}.{name}.{method}")
        return datetime.datetime.fromisoformat(payload)
    cls = _allowed(module, name)
    try:
        if code == _EXT_SINGLE_ARG:
            return cls(payload)
        if code == _EXT_POS_ARGS and isinstance(payload, list | tuple):
            if cls is Send:
                node, arg = payload
                return Send(node, arg)
            return cls(*payload)
        if code in (_EXT_KW_ARGS, _EXT_PYDANTIC_V1, _EXT_PYDANTIC_V2) and isinstance(payload, dict):
            return cls(**payload)
    except (TypeError, ValueError) as exc:
        raise _refuse(f"a {name} that does not validate ({type(exc).__name__})") from None
    raise _refuse(f"an object of type {module}.{name} in an unknown form")


class StrictSerializer:
    """Writes as LangGraph does; reads back only plain data and `ALLOWED_TYPES`."""

    def __init__(self) -> None:
        # No pickle fallback; writing never needs LangGraph's permissive reader.
        self._writer = JsonPlusSerializer(pickle_fallback=False)

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return self._writer.dumps_typed(obj)

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        kind, payload = data
        if kind not in _PLAIN_TYPES:
            raise _refuse(f"data of the kind {kind!r}")
        if kind == "null":
            return None
        if kind == "bytes":
            return payload
        if kind == "bytearray":
            return bytearray(payload)
        try:
            return _unpack(payload)
        except UnreadableCheckpointError:
            raise
        except (ormsgpack.MsgpackDecodeError, TypeError, ValueError) as exc:
            raise _refuse(f"data that does not decode ({type(exc).__name__})") from None
