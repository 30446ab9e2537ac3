"""Names as a person writes them -> the server's ids: nodes, ports, templates, links.

The model names things the way the user does: ``R1``, ``Ethernet0``, ``e0/0``, ``eth0``, ``0``,
``port 3``, ``VPCS``. Every resolver here either returns the one object meant or raises
`NameResolutionError` whose text lists close matches (difflib) or the choices, so the model can
correct its call.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link, Node, Port, Template

_NUMBERS_RE = re.compile(r"\d+")
_PORT_WORD_RE = re.compile(r"^(?:port|interface|int|if)\s*", re.IGNORECASE)
_MAX_LISTED = 12


class NameResolutionError(CopilotError):
    """A name the model used matches nothing (or several things); the text says what exists."""


PortKey = tuple[str, int, int]
"""(node_id, adapter_number, port_number): one port of the project."""


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def _listing(names: Iterable[str]) -> str:
    names = sorted(set(names), key=str.lower)
    shown = ", ".join(names[:_MAX_LISTED])
    more = f" (and {len(names) - _MAX_LISTED} more)" if len(names) > _MAX_LISTED else ""
    return shown + more if names else "none"


def _unknown(kind: str, name: str, choices: Sequence[str], scope: str = "") -> NameResolutionError:
    close = difflib.get_close_matches(name, choices, n=3, cutoff=0.5)
    lowered = {c.lower(): c for c in choices}
    close += [
        lowered[m]
        for m in difflib.get_close_matches(name.lower(), list(lowered), n=3, cutoff=0.5)
        if lowered[m] not in close
    ]
    hint = f" Did you mean: {', '.join(close[:3])}?" if close else ""
    where = f" {scope}" if scope else ""
    return NameResolutionError(
        f"There is no {kind} named '{name}'{where}.{hint} Existing {kind}s: {_listing(choices)}."
    )


# --- nodes ---------------------------------------------------------------------------------------


def resolve_node(nodes: Sequence[Node], name: str) -> Node:
    """The node called `name` (exact, then case- and space-insensitive, then its id)."""
    for node in nodes:
        if node.name == name:
            return node
    wanted = _squash(name)
    matches = [node for node in nodes if _squash(node.name) == wanted]
    if len(matches) == 1:
        return matches[0]
    for node in nodes:
        if node.node_id == name:
            return node
    raise _unknown("node", name, [node.name for node in nodes], "in this project")


def resolve_nodes(nodes: Sequence[Node], names: Sequence[str]) -> list[Node]:
    """Several nodes; every unknown name is reported at once."""
    found: list[Node] = []
    problems: list[str] = []
    for name in names:
        try:
            node = resolve_node(nodes, name)
        except NameResolutionError as exc:
            problems.append(exc.user_message)
            continue
        if node not in found:
            found.append(node)
    if problems:
        raise NameResolutionError(" ".join(problems))
    return found


# --- ports ---------------------------------------------------------------------------------------


def _letters(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalpha())


def _port_numbers(port: Port) -> tuple[int, ...]:
    return tuple(int(n) for n in _NUMBERS_RE.findall(port.name))


def _prefix_ok(letters: str, port: Port) -> bool:
    """``e``/``eth``/``fa``/``gi`` fit the port's name or short name (none given: any port)."""
    if not letters:
        return True
    names = [_letters(port.name), _letters(port.short_name or "")]
    return any(name.startswith(letters) or letters.startswith(name) for name in names if name)


def _port_candidates(node: Node, spec: str) -> list[Port]:
    text = _PORT_WORD_RE.sub("", spec.strip())
    wanted = _squash(text)
    exact = [
        p for p in node.ports if wanted in (_squash(p.name), _squash(p.short_name or "")) and wanted
    ]
    if exact:
        return exact
    numbers = tuple(int(n) for n in _NUMBERS_RE.findall(text))
    if not numbers:
        return []
    letters = _letters(text)
    fitting = [p for p in node.ports if _prefix_ok(letters, p)]
    by_name = [p for p in fitting if _port_numbers(p) == numbers]
    if by_name:
        return by_name
    if len(numbers) == 2:
        return [p for p in fitting if (p.adapter_number, p.port_number) == numbers]
    if len(numbers) == 1 and not letters:
        # "port 3" on a node whose ports are "Ethernet0/3": the port whose last number is 3.
        return [p for p in fitting if _port_numbers(p)[-1:] == numbers]
    return []


def resolve_port(node: Node, spec: str) -> Port:
    """The port of `node` meant by `spec`: ``Ethernet0``, ``e0/0``, ``eth0``, ``0``, ``port 3``."""
    candidates = _port_candidates(node, spec)
    if len(candidates) == 1:
        return candidates[0]
    names = [p.name for p in node.ports]
    if not candidates:
        raise _unknown("port", spec, names, f"on {node.name}")
    raise NameResolutionError(
        f"'{spec}' on {node.name} could mean {', '.join(p.name for p in candidates)}; "
        "use the full port name."
    )


def used_ports(links: Iterable[Link]) -> set[PortKey]:
    """Every (node, adapter, port) some link already uses."""
    return {(end.node_id, end.adapter_number, end.port_number) for lk in links for end in lk.nodes}


def free_port(node: Node, used: set[PortKey], taken: set[PortKey] | None = None) -> Port:
    """The first port of `node` that no link uses (nor one in `taken`, chosen earlier)."""
    busy = used | (taken or set())
    for port in node.ports:
        if (node.node_id, port.adapter_number, port.port_number) not in busy:
            return port
    raise NameResolutionError(
        f"{node.name} has no free port: all {len(node.ports)} of its ports are linked."
    )


def port_key(node: Node, port: Port) -> PortKey:
    """The `PortKey` of a node's port."""
    return (node.node_id, port.adapter_number, port.port_number)


def port_label(node: Node, adapter_number: int, port_number: int) -> str:
    """The port's name on `node`, else ``adapter/port``."""
    for port in node.ports:
        if (port.adapter_number, port.port_number) == (adapter_number, port_number):
            return port.name
    return f"{adapter_number}/{port_number}"


# --- templates -----------------------------------------------------------------------------------


def resolve_template(templates: Sequence[Template], name: str) -> Template:
    """The template called `name` (any case), or the one whose type or id it is."""
    wanted = _squash(name)
    for match in (
        lambda t: t.name == name,
        lambda t: _squash(t.name) == wanted,
        lambda t: t.template_id == name,
        lambda t: _squash(t.template_type or "") == wanted,
    ):
        found = [t for t in templates if match(t)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise NameResolutionError(
                f"Several templates fit '{name}': {_listing(t.name for t in found)}; "
                "use the exact template name."
            )
    raise _unknown("template", name, [t.name for t in templates])


# --- links ---------------------------------------------------------------------------------------


def link_label(link: Link, nodes_by_id: dict[str, Node]) -> str:
    """``R1 e0/0 <-> SW1 Ethernet3``."""
    ends = []
    for end in link.nodes:
        node = nodes_by_id.get(end.node_id)
        if node is None:
            ends.append(f"{end.node_id[:8]} {end.adapter_number}/{end.port_number}")
        else:
            ends.append(f"{node.name} {port_label(node, end.adapter_number, end.port_number)}")
    return " <-> ".join(ends)


def _end_matches(link: Link, node: Node, port: Port | None) -> bool:
    return any(
        end.node_id == node.node_id
        and (
            port is None
            or (end.adapter_number, end.port_number) == (port.adapter_number, port.port_number)
        )
        for end in link.nodes
    )


def resolve_link(
    nodes: Sequence[Node],
    links: Sequence[Link],
    node_a: str,
    port_a: str | None = None,
    node_b: str | None = None,
    port_b: str | None = None,
) -> Link:
    """The one link at `node_a` (port `port_a`) going to `node_b` (port `port_b`), or its id."""
    for link in links:
        if link.link_id == node_a:
            return link
    a = resolve_node(nodes, node_a)
    pa = resolve_port(a, port_a) if port_a else None
    b = resolve_node(nodes, node_b) if node_b else None
    pb = resolve_port(b, port_b) if b is not None and port_b else None
    found = [
        lk
        for lk in links
        if _end_matches(lk, a, pa)
        and (b is None or _end_matches(lk, b, pb))
        and (b is None or b.node_id != a.node_id or len({e.node_id for e in lk.nodes}) == 1)
    ]
    by_id = {node.node_id: node for node in nodes}
    wanted = " ".join(x for x in (node_a, port_a, "<->" if node_b else None, node_b, port_b) if x)
    if len(found) == 1:
        return found[0]
    if not found:
        at_a = [link_label(lk, by_id) for lk in links if _end_matches(lk, a, None)]
        return _raise(f"No link matches '{wanted}'. Links of {a.name}: {_listing(at_a)}.")
    labels = ", ".join(link_label(lk, by_id) for lk in found)
    return _raise(f"'{wanted}' matches {len(found)} links ({labels}); name the ports too.")


def _raise(text: str) -> Link:
    raise NameResolutionError(text)
