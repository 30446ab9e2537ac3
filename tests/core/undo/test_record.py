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


def _restore_node(files: dict[str, str]) -> dict[str, object]:
    node = {"node_id": "n1", "name": "PC1", "node_type": "vpcs", "files": files}
    return {"version": 1, "tool": "delete_nodes",
            "steps": [{"kind": "restore_node", "node": node}]}  # fmt: skip


def test_a_record_with_a_hostile_node_file_is_refused_at_parse() -> None:
    """A node file's name goes into a server URL and its lines run when VPCS starts: a record
    with a path for a name (``../../../../../access/users`` reached another endpoint of the
    server and created a user) or a line that runs on the host is no record: no Undo."""
    good = _restore_node({"startup.vpc": "set pcname PC1\nip 10.0.0.1/24 10.0.0.254\n"})
    assert UndoRecord.from_structured({"undo": good}) is not None
    for name in (
        "../../../../../access/users",
        "../startup.vpc",
        "..",
        "a/b",
        "a\\b",
        "/etc/passwd",
        "startup.vpc\n",
        "start\x00up",
        "x" * 65,
        "",
        ".hidden",
        "st\u0430rtup.vpc",  # Cyrillic a
    ):
        assert UndoRecord.from_structured({"undo": _restore_node({name: "x"})}) is None, name
    for text in ("!touch MARKER", "ip 10.0.0.1/24\n! rm -rf ~", "save ../../x", "x" * 70_000):
        assert UndoRecord.from_structured({"undo": _restore_node({"startup.vpc": text})}) is None


def test_a_node_file_that_could_not_be_written_back_is_not_recorded() -> None:
    """Recording a delete keeps the node, not a file that would be refused when read back."""
    from gns3_copilot_desktop.core.gns3.models import Node
    from gns3_copilot_desktop.core.undo.record import SavedNode

    node = Node(node_id="n1", name="PC1", node_type="vpcs")
    saved = SavedNode.from_node(node, {"startup.vpc": "ip 10.0.0.1/24", "../x": "y", "b": "!ls"})
    assert saved.files == {"startup.vpc": "ip 10.0.0.1/24"}
