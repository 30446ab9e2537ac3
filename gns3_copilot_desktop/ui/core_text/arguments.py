"""The words inside a phrase's data parts ("all nodes", "(+2 lines)") and the tools' argument
names as the user reads them."""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name pylupdate6 looks for
    """Mark `text` for translation where it is defined; it is translated where it is shown."""
    return text


# Phrases inside the data parts of a phrase (its groups), translated in place.
INNER_PHRASES: list[tuple[str, str]] = [
    # an undo that found a node or link by its name after GNS3 renewed the ids
    (r"\(matched by name: ([^)]+)\)", QT_TRANSLATE_NOOP("CoreText", "(matched by name: %1)")),
    (
        r"\(matched by name and ports\)",
        QT_TRANSLATE_NOOP("CoreText", "(matched by name and ports)"),
    ),
    (r"\ball nodes\b", QT_TRANSLATE_NOOP("CoreText", "all nodes")),
    (r"\bbeginner\b", QT_TRANSLATE_NOOP("CoreText", "beginner")),
    (r"\bintermediate\b", QT_TRANSLATE_NOOP("CoreText", "intermediate")),
    (r"\badvanced\b", QT_TRANSLATE_NOOP("CoreText", "advanced")),
    (r"\(\+(\d+) lines\)", QT_TRANSLATE_NOOP("CoreText", "(+%1 lines)")),
    (r"\bnew node\b", QT_TRANSLATE_NOOP("CoreText", "new node")),
    (r" and its 1 link\b", QT_TRANSLATE_NOOP("CoreText", " and its 1 link")),
    (r" and its (\d+) links\b", QT_TRANSLATE_NOOP("CoreText", " and its %1 links")),
    (r"\(no links\)", QT_TRANSLATE_NOOP("CoreText", "(no links)")),
    (r", now started", QT_TRANSLATE_NOOP("CoreText", ", now running")),
    (r", now suspended", QT_TRANSLATE_NOOP("CoreText", ", now suspended")),
    (r"\bsame\b", QT_TRANSLATE_NOOP("CoreText", "same")),
    (r"\(free port\)", QT_TRANSLATE_NOOP("CoreText", "(free port)")),
    (r"\b(\d+) nodes?\b", QT_TRANSLATE_NOOP("CoreText", "%1 node(s)")),
    (r"\b(\d+) links?\b", QT_TRANSLATE_NOOP("CoreText", "%1 link(s)")),
    (r"\b(\d+) devices?\b", QT_TRANSLATE_NOOP("CoreText", "%1 device(s)")),
    (r"\bthe link at (\S+)", QT_TRANSLATE_NOOP("CoreText", "the link at %1")),
]

ARGUMENT_NAMES = {
    "nodes": QT_TRANSLATE_NOOP("CoreText", "nodes"),
    "node": QT_TRANSLATE_NOOP("CoreText", "node"),
    "template": QT_TRANSLATE_NOOP("CoreText", "template"),
    "templates": QT_TRANSLATE_NOOP("CoreText", "templates"),
    "name": QT_TRANSLATE_NOOP("CoreText", "name"),
    "new_name": QT_TRANSLATE_NOOP("CoreText", "new name"),
    "links": QT_TRANSLATE_NOOP("CoreText", "links"),
    "link": QT_TRANSLATE_NOOP("CoreText", "link"),
    "node_a": QT_TRANSLATE_NOOP("CoreText", "node A"),
    "node_b": QT_TRANSLATE_NOOP("CoreText", "node B"),
    "port_a": QT_TRANSLATE_NOOP("CoreText", "port A"),
    "port_b": QT_TRANSLATE_NOOP("CoreText", "port B"),
    "devices": QT_TRANSLATE_NOOP("CoreText", "devices"),
    "lines": QT_TRANSLATE_NOOP("CoreText", "configuration lines"),
    "commands": QT_TRANSLATE_NOOP("CoreText", "commands"),
    "timeout_s": QT_TRANSLATE_NOOP("CoreText", "timeout (s)"),
    "command_timeout_s": QT_TRANSLATE_NOOP("CoreText", "command timeout (s)"),
    "credential": QT_TRANSLATE_NOOP("CoreText", "saved login"),
    "x": QT_TRANSLATE_NOOP("CoreText", "x"),
    "y": QT_TRANSLATE_NOOP("CoreText", "y"),
    "all": QT_TRANSLATE_NOOP("CoreText", "all"),
    "wait": QT_TRANSLATE_NOOP("CoreText", "wait"),
    "text": QT_TRANSLATE_NOOP("CoreText", "text"),
    "color": QT_TRANSLATE_NOOP("CoreText", "colour"),
}
