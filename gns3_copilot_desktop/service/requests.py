"""The Chat API's request bodies and the bounds on what a request may carry.

Every body is parsed strictly (unknown fields are refused) and every text is bounded, so a
request is data of a known shape and size before a route reads it. A project id is kept in GNS3's
own spelling whatever spelling the caller used.
"""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request

from gns3_copilot_desktop.core.agent.approval import ApprovalDecision
from gns3_copilot_desktop.core.agent.modes import Mode
from gns3_copilot_desktop.service.errors import HttpError

MAX_MESSAGE_CHARS = 100_000
MAX_TITLE_CHARS = 200
MAX_ID_CHARS = 100
MAX_BODY_BYTES = 2 * 1024 * 1024
"""Largest request body: a message of `MAX_MESSAGE_CHARS`, every character JSON-escaped,
fits."""
MAX_DECISIONS = 100
MAX_REASON_CHARS = 2_000


def canonical_project_id(raw: str) -> str:
    """The project id in GNS3's own spelling (a lowercase, hyphenated UUID).

    Every spelling of a UUID (upper case, no hyphens, braces, ``urn:uuid:``) names the same
    project, so the service keys its databases and threads by this form only; anything that is
    not a UUID is refused (`ValueError`)."""
    if len(raw) > MAX_ID_CHARS:
        raise ValueError("project_id is not a GNS3 project id (a UUID)")
    try:
        return str(uuid.UUID(raw))
    except ValueError:
        raise ValueError("project_id is not a GNS3 project id (a UUID)") from None


ProjectId = Annotated[str, AfterValidator(canonical_project_id)]
Title = Annotated[str, Field(min_length=1, max_length=MAX_TITLE_CHARS)]
SessionId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]


class BoundedDecision(ApprovalDecision):
    """An approval decision with bounded text: edited arguments are bounded by the body's size."""

    tool_call_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    reason: str | None = Field(default=None, max_length=MAX_REASON_CHARS)
    always_allow: bool = False
    """With ``approve``: later calls of this tool in this project run without asking this user
    (kept on the service, per user and project)."""

    def core(self) -> ApprovalDecision:
        """The decision as the agent takes it."""
        return ApprovalDecision.model_validate(self.model_dump(exclude={"always_allow"}))


# --- request bodies ------------------------------------------------------------------------------


class ChatRequest(BaseModel):
    """The design's ChatRequest."""

    model_config = ConfigDict(extra="forbid")

    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    session_id: SessionId | None = None
    """Created when missing (the new id comes back on every chunk)."""
    project_id: ProjectId
    stream: bool = True
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)
    mode: Mode | None = None


class SessionCreate(BaseModel):
    """``POST /v3/chat/sessions``."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    title: Title | None = None
    mode: Mode = "assistant"


class SessionUpdate(BaseModel):
    """``PATCH /v3/chat/sessions/{id}``: rename and pin."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    title: Title | None = None
    pinned: bool | None = None


class UndoneRequest(BaseModel):
    """``POST /v3/chat/sessions/{id}/undone``: the dock carried out the Undo of a change."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    tool_call_id: str = Field(min_length=1, max_length=MAX_ID_CHARS)


class ResumeRequest(BaseModel):
    """The user's decisions on the calls a paused turn waits for."""

    model_config = ConfigDict(extra="forbid")

    project_id: ProjectId
    decisions: list[BoundedDecision] = Field(max_length=MAX_DECISIONS)


async def read_bounded(request: Request) -> bytes:
    """The request's body, refused with 413 as soon as it is known to be larger than
    `MAX_BODY_BYTES`: from its Content-Length before reading any of it, else (a chunked body)
    once that much has come, without reading the rest."""
    too_large = HttpError(413, f"The request body is larger than {MAX_BODY_BYTES} bytes.")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise too_large
    body = bytearray()
    async for piece in request.stream():
        body += piece
        if len(body) > MAX_BODY_BYTES:
            raise too_large
    return bytes(body)


async def parse_body(request: Request, model: type[BaseModel]) -> Any:
    raw = await read_bounded(request)
    try:
        return model.model_validate_json(raw or b"{}")
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}" for e in exc.errors()
        )
        raise HttpError(422, f"Invalid request body: {details}") from None
