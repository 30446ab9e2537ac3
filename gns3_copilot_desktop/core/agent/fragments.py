"""A tool call a small model writes as text (``functions.get_topology:{}``) is never shown as
the answer.

Some local models, asked with tools, answer with the tool call's text instead of a call. The
stream holds back an answer's text while it could still be such a fragment (it starts like
``functions.``), and the model step replaces a fragment answer with a sentence that says what
happened and what to do.
"""

from __future__ import annotations

import re

MARK = "functions."
FRAGMENT_RE = re.compile(r"^\s*(?:<\|?[a-z_]+\|?>\s*)?functions\.(?P<name>[A-Za-z0-9_\-]+)")

FRAGMENT_TEXT = (
    "The model wrote a tool call as text ({name}) instead of calling the tool or answering, so "
    "nothing was run. Ask again, or choose a model that supports tool calling (Test connection "
    "in the model settings says whether it does)."
)


def fragment_name(text: str) -> str | None:
    """The tool name when ``text`` is a tool call written as text, else None."""
    match = FRAGMENT_RE.match(text)
    return f"functions.{match.group('name')}" if match else None


def readable_answer(text: str) -> str:
    """``text``, or the sentence that replaces a tool-call fragment."""
    name = fragment_name(text)
    return FRAGMENT_TEXT.format(name=name) if name else text


class FragmentGuard:
    """Holds back one streamed answer's text while it may be a ``functions.`` fragment."""

    def __init__(self) -> None:
        self._held: dict[str, str] = {}
        self._open: set[str] = set()  # messages whose text was found not to be a fragment

    def feed(self, message_id: str, text: str) -> str:
        """The text to show now (maybe empty while held)."""
        if message_id in self._open:
            return text
        so_far = self._held.get(message_id, "") + text
        start = so_far.lstrip()
        if MARK.startswith(start) or start.startswith(MARK):
            self._held[message_id] = so_far
            return ""
        self._held.pop(message_id, None)
        self._open.add(message_id)
        return so_far

    def finish(self, message_id: str | None) -> str | None:
        """The held text of a finished answer (None when nothing was held)."""
        if message_id is None:
            return None
        return self._held.pop(message_id, None)
