"""Streaming-safe Markdown blocks."""

from __future__ import annotations

from gns3_copilot_desktop.ui.chat.markdown import Block, MarkdownStream, split_blocks

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


FENCES = (
    "Config:\n\n````text\nhostname R1\n```\nnot closed by a shorter fence\n````\n"
    "~~~\ninterface Fa0/0\n```\n ip address 10.0.0.1 255.255.255.0\n~~~\n\n"
    "```\n" + "".join(f"line {i}\n" for i in range(120)) + "```\nDone.\n\n```bash\nopen at the end"
)


def test_feeding_in_pieces_matches_splitting_each_prefix_at_once() -> None:
    # the stream skips re-scanning an open fence: each step must still agree with a fresh split
    for size in (1, 3, 7, 64):
        stream, finished = MarkdownStream(), []
        for end in range(size, len(FENCES) + size, size):
            done, open_block = stream.feed(FENCES[end - size : end])
            finished.extend(done)
            fresh = MarkdownStream()
            fresh_done, fresh_open = fresh.feed(FENCES[:end])
            assert (finished, open_block) == (fresh_done, fresh_open), (size, end)
        finished.extend(stream.close())
        assert finished == split_blocks(FENCES)
    assert split_blocks(FENCES)[-1] == Block("plain", "```bash\nopen at the end")
