"""Undo records read back from a session database."""

from __future__ import annotations

from gns3_copilot_desktop.core.protocol import ChatChunk
from gns3_copilot_desktop.core.undo.record import UndoRecord


def test_a_record_that_is_not_ours_is_no_record() -> None:
    """A structured result from a database is parsed strictly: junk offers no Undo."""
    good = {"version": 1, "tool": "create_nodes", "steps": [
        {"kind": "remove_node", "node_id": "n1", "name": "PC1"}]}  # fmt: skip
    assert UndoRecord.from_structured({"undo": good}) is not None
    for bad in (
        {**good, "version": 2},
        {**good, "steps": []},
        {**good, "steps": [{"kind": "run_shell", "command": "rm -rf /"}]},
        {**good, "steps": [{"kind": "remove_node", "node_id": "n1", "name": "PC1", "x": 1}]},
        "undo",
        None,
    ):
        assert UndoRecord.from_structured({"undo": bad}) is None
    assert UndoRecord.from_structured(ChatChunk(type="done").structured) is None
