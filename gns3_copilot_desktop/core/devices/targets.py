"""Where a GNS3 node's console is: from the node the server reports to a `ConsoleTarget`."""

from __future__ import annotations

from urllib.parse import urlsplit

from gns3_copilot_desktop.core.devices.console_data import ConsoleTarget
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.errors import DeviceError
from gns3_copilot_desktop.core.gns3.models import Node

# Node types whose console family is known; qemu, virtualbox, vmware... run any image: AUTO.
_KINDS = {
    "vpcs": DeviceKind.VPCS,
    "dynamips": DeviceKind.IOS,
    "iou": DeviceKind.IOS,
    "docker": DeviceKind.LINUX,
}
# A QEMU node's console is its serial line behind GNS3's telnet relay: Enter is a carriage
# return there (a terminal's line discipline makes the CR and the LF of CR LF two Enters, so a
# login would take the LF as an empty password).
_NEWLINES = {"qemu": "\r"}
_ANY_ADDRESS = {"", "0.0.0.0", "::", "0:0:0:0:0:0:0:0"}


def kind_for_node_type(node_type: str) -> DeviceKind:
    """The console family of a GNS3 node type (AUTO when the image decides)."""
    return _KINDS.get(node_type, DeviceKind.AUTO)


def target_for_node(node: Node, server_url: str) -> ConsoleTarget:
    """The telnet console of `node`; a console bound to every address is reached via the server.

    Raises `DeviceError` with a sentence the model can act on when the node has no usable console.
    """
    if node.console_type not in (None, "telnet"):
        raise DeviceError(
            f"{node.name} has a {node.console_type} console; only telnet consoles can be used."
        )
    if node.status != "started":
        raise DeviceError(f"{node.name} is {node.status}; start it before using its console.")
    if node.console is None:
        raise DeviceError(f"{node.name} has no console port.")
    host = node.console_host or ""
    if host in _ANY_ADDRESS:
        host = urlsplit(server_url).hostname or "127.0.0.1"
    kind = kind_for_node_type(node.node_type)
    return ConsoleTarget(node.name, host, node.console, kind, _NEWLINES.get(node.node_type))
