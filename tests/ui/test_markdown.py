"""Streaming-safe Markdown blocks."""

from __future__ import annotations

from gns3_copilot_desktop.ui.markdown import Block, MarkdownStream, split_blocks

DOC = (
    "# Title\n\nSome **bold** text\nmore\n\n- a\n- b\n\n```python\nprint(1)\n\n\nx = 2\n```\n"
    "After code\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
)


def test_split_blocks_of_a_whole_document() -> None:
    assert split_blocks(DOC) == [
        Block("markdown", "# Title"),
        Block("markdown", "Some **bold** text\nmore"),
        Block("markdown", "- a\n- b"),
        Block("code", "print(1)\n\n\nx = 2", "python"),
        Block("markdown", "After code"),
        Block("markdown", "| a | b |\n|---|---|\n| 1 | 2 |"),
    ]


def test_streaming_char_by_char_gives_the_same_blocks_each_once() -> None:
    stream = MarkdownStream()
    finished: list[Block] = []
    for ch in DOC:
        done, _open = stream.feed(ch)
        finished.extend(done)
    finished.extend(stream.close())
    assert finished == split_blocks(DOC)
    assert stream.text == DOC


def test_unfinished_code_block_is_plain_text() -> None:
    stream = MarkdownStream()
    done, open_block = stream.feed("Intro\n\n```bash\nshow ip route\n# not a heading\n")
    assert done == [Block("markdown", "Intro")]
    assert open_block == Block("plain", "```bash\nshow ip route\n# not a heading")
    done, open_block = stream.feed("```\n")
    assert done == [Block("code", "show ip route\n# not a heading", "bash")]
    assert open_block is None


def test_fence_right_after_a_paragraph_ends_it() -> None:
    assert split_blocks("Run this:\n```\nls\n```\n") == [
        Block("markdown", "Run this:"),
        Block("code", "ls", ""),
    ]


def test_an_unclosed_fence_at_the_end_stays_plain() -> None:
    assert split_blocks("```\nhalf") == [Block("plain", "```\nhalf")]
