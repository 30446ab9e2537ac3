"""A short session title in the user's language, from the first user message.

The title is asked for once the first answer is complete (a local server answers one request at a
time: a title asked first would hold the answer back), with a small answer limit, and streamed, so
that giving up on it closes the connection and the server stops generating. The turn waits for it,
bounded, before its ``done``. If the model fails or is slow, a title is cut from the message
itself, which is in the user's language by construction.
"""

from __future__ import annotations

import asyncio
import logging
import re

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from gns3_copilot_desktop.core.agent.model_factory import with_answer_limit
from gns3_copilot_desktop.core.agent.prompts import TITLE_PROMPT

log = logging.getLogger(__name__)

MAX_TITLE_CHARS = 60
TITLE_MAX_TOKENS = 32
_MAX_INPUT_CHARS = 1_000


def fallback_title(message: str) -> str:
    """The first words of the message's first non-empty line."""
    line = next((ln.strip() for ln in message.splitlines() if ln.strip()), "")
    words = line.split()
    title = " ".join(words[:6])
    return _clip(title) or "New conversation"


def clean_title(raw: str) -> str:
    """Strip quotes, a "Title:" prefix, Markdown marks and final punctuation."""
    line = next((ln.strip() for ln in raw.splitlines() if ln.strip()), "")
    line = re.sub(r"^(title|titre|titel|título|标题)\s*[:：]\s*", "", line, flags=re.IGNORECASE)
    previous = None
    while previous != line:  # quotes and final punctuation can nest: "Title".
        previous = line
        line = line.strip().strip("\"'`*#«»“”「」 ").rstrip(".。!！?？:;")
    return _clip(line)


def _clip(text: str) -> str:
    if len(text) <= MAX_TITLE_CHARS:
        return text
    cut = text[:MAX_TITLE_CHARS].rsplit(" ", 1)[0]
    return (cut or text[:MAX_TITLE_CHARS]) + "…"


async def generate_title(model: BaseChatModel, first_message: str, timeout_s: float) -> str:
    """Ask the model for a title; fall back to the message's first words on any failure."""
    request = [SystemMessage(TITLE_PROMPT), HumanMessage(first_message[:_MAX_INPUT_CHARS])]
    limited = with_answer_limit(model, TITLE_MAX_TOKENS)
    text = ""
    try:
        async with asyncio.timeout(timeout_s):
            async for piece in limited.astream(request):
                text += piece.text
    except TimeoutError:
        log.info("title generation timed out; using the message's first words")
        return fallback_title(first_message)
    except Exception as exc:  # any provider failure: the title is not worth an error
        log.info(
            "title generation failed (%s); using the message's first words", type(exc).__name__
        )
        return fallback_title(first_message)
    return clean_title(text) or fallback_title(first_message)
