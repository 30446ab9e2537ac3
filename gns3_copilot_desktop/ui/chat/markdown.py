"""Markdown split into blocks, incrementally and safely while it streams.

A streaming answer is cut into top-level blocks (paragraphs, headings, lists, tables, code
fences). A block is *finished* once a blank line (outside a fence) or a closing fence follows it;
finished blocks never change again, so the view renders each of them once and only re-renders the
last, open block. An unfinished code fence is reported as plain text, so half a code block never
turns the rest of the answer into a mess. Pure Python: no Qt here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

BlockKind = Literal["markdown", "code", "plain"]

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)")


@dataclass(frozen=True)
class Block:
    """One top-level block: Markdown text, a finished code block, or plain text (open fence)."""

    kind: BlockKind
    text: str
    language: str = ""


class MarkdownStream:
    """Accumulates streamed text and hands out blocks as they finish.

    `feed` returns the blocks that finished with this text (render them once) and the open block
    (re-render it on each paint). Work per feed is proportional to the open block, not the answer;
    inside an open code fence it is proportional to the new text (lines are only checked once for
    the closing fence).
    """

    def __init__(self) -> None:
        self._pending = ""  # text of the open block(s), not yet finished
        self._source: list[str] = []
        self._open_fence: str | None = None  # the opener while `_pending` is an open code fence
        self.finished: list[Block] = []

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return "".join(self._source)

    def feed(self, text: str) -> tuple[list[Block], Block | None]:
        """Add streamed text; return (newly finished blocks, the open block or None)."""
        self._source.append(text)
        fence = self._open_fence
        if fence is not None:
            last_line = self._pending[self._pending.rfind("\n") + 1 :]
            if not _may_close(last_line + text, fence):
                self._pending += text
                return [], Block("plain", self._pending.strip("\n"))
        self._pending += text
        done, rest = _split_finished(self._pending)
        self._pending = rest
        self.finished.extend(done)
        block = _open_block(rest)
        self._open_fence = None
        if block is not None and block.kind == "plain":
            opener = _FENCE.match(block.text)
            self._open_fence = opener.group(1) if opener else None
        return done, block

    def close(self) -> list[Block]:
        """End of stream: the open block becomes finished (an open fence stays plain text)."""
        last = _open_block(self._pending)
        self._pending = ""
        self._open_fence = None
        if last is None:
            return []
        self.finished.append(last)
        return [last]


def split_blocks(text: str) -> list[Block]:
    """All blocks of a complete Markdown text."""
    stream = MarkdownStream()
    done, _ = stream.feed(text)
    return done + stream.close()


def _split_finished(text: str) -> tuple[list[Block], str]:
    """Cut the finished blocks off the front of `text`; return them and the unfinished rest."""
    blocks: list[Block] = []
    lines = text.split("\n")
    # The last element is an unterminated line: it can still grow, never finish a block with it.
    complete, start, i = lines[:-1], 0, 0
    while i < len(complete):
        line = complete[i]
        fence = _FENCE.match(line)
        if fence and _is_blank_run(complete[start:i]):
            end = _closing_fence(complete, i + 1, fence.group(1))
            if end is None:
                break
            code = "\n".join(complete[i + 1 : end])
            blocks.append(Block("code", code, fence.group(2)))
            start = i = end + 1
            continue
        if fence:  # a fence right after paragraph text ends the paragraph first
            blocks.append(Block("markdown", "\n".join(complete[start:i]).strip("\n")))
            start = i
            continue
        if not line.strip() and not _is_blank_run(complete[start:i]):
            blocks.append(Block("markdown", "\n".join(complete[start:i]).strip("\n")))
            start = i + 1
        elif not line.strip():
            start = i + 1
        i += 1
    rest = "\n".join(lines[start:])
    return blocks, rest


def _is_blank_run(lines: list[str]) -> bool:
    return all(not line.strip() for line in lines)


def _closing_fence(lines: list[str], start: int, opener: str) -> int | None:
    for j in range(start, len(lines)):
        stripped = lines[j].strip()
        if stripped.startswith(opener[0] * len(opener)) and not stripped.strip(opener[0]):
            return j
    return None


def _may_close(text: str, opener: str) -> bool:
    """True when a line of `text` could be the closing fence of `opener`."""
    return _closing_fence(text.split("\n"), 0, opener) is not None


def _open_block(rest: str) -> Block | None:
    body = rest.strip("\n")
    if not body.strip():
        return None
    fence = _FENCE.match(body)
    if fence:
        lines = body.split("\n")
        # a closing fence on the unterminated last line still finishes the code block
        if len(lines) > 1 and _closing_fence(lines[-1:], 0, fence.group(1)) is not None:
            return Block("code", "\n".join(lines[1:-1]), fence.group(2))
        return Block("plain", body)
    return Block("markdown", body)
