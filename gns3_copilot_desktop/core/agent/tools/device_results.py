"""What a device tool answers and shows: each device's outcome as text and as its card (the
configuration before and after, secrets scrubbed), the preview of a push (``+`` lines against
the running configuration, a VPCS's address change), and the undo steps of a push."""

from __future__ import annotations

import difflib
import ipaddress
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gns3_copilot_desktop.core.agent.tools.base import (
    ToolResult,
    truncate_text,
)
from gns3_copilot_desktop.core.devices import (
    DeviceKind,
    DeviceOutcome,
)
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.undo.config import (
    RestoreLines,
    VpcsSettings,
    family_of,
    restore_lines,
    vpcs_settings,
)
from gns3_copilot_desktop.core.undo.record import RestoreConfig, with_undo

if TYPE_CHECKING:
    pass

CARD_CONFIG_MAX_CHARS = 64_000
"""The running configuration kept on a push's card, before and after (secrets scrubbed)."""
LOGIN_HINT = (
    " Tell the user to save a console login for this node (or its template) in the copilot's "
    "Settings, Console logins tab: the password goes to the OS keyring, never into the chat."
)


def _outcome_text(outcome: DeviceOutcome) -> str:
    lines = [f"== {outcome.device} =="]
    if outcome.config is not None:
        cfg = outcome.config
        state = "all accepted" if cfg.ok else f"{len(cfg.rejected)} rejected"
        lines.append(f"configuration: {len(cfg.lines)} line(s), {state}")
        lines += [f"  rejected: {r.line} -> {r.message}" for r in cfg.rejected]
        lines.append(cfg.output)
    for result in outcome.results:
        lines.append(f"{result.prompt.strip() or '>'} {result.command}")
        lines.append(result.output + ("\n[output cut]" if result.truncated else ""))
    changes = config_changes(outcome)
    if changes is not None:
        lines.append(changes)
    if outcome.error:
        error = outcome.error + (LOGIN_HINT if "none is configured" in outcome.error else "")
        lines.append(f"ERROR: {error}")
    return "\n".join(line for line in lines if line)


def config_changes(outcome: DeviceOutcome) -> str | None:
    """What the push changed in the running configuration, as a unified diff (None when it was
    not read before and after)."""
    before, after = outcome.config_before, outcome.config_after
    if before is None or after is None:
        return None
    diff = list(
        difflib.unified_diff(
            before.output.splitlines(),
            after.output.splitlines(),
            f"{outcome.device} before ({before.command})",
            f"{outcome.device} after",
            n=1,
            lineterm="",
        )
    )
    if not diff:
        return f"Running configuration ({before.command}): unchanged."
    return f"Running configuration changes ({before.command}):\n" + "\n".join(diff)


def config_preview(
    lines: Sequence[str], running: str, read_command: str = ""
) -> tuple[str, int, int]:
    """The lines to push against the running configuration: ``+`` not there yet, `` `` there.

    IOS-like and Junos configurations are compared line by line. A VPCS has no configuration
    text (``show ip`` prints its state), so its lines are compared with the state they would
    set (`vpcs_preview`). Returns the marked text, the count of new lines and of lines already
    present."""
    if family_of(read_command) is DeviceKind.VPCS:
        return vpcs_preview(lines, running)
    present = {" ".join(line.split()) for line in running.splitlines()}
    marked = []
    new = 0
    for line in lines:
        there = " ".join(line.split()) in present
        new += not there
        marked.append(("  " if there else "+ ") + line)
    return "\n".join(marked), new, len(lines) - new


def vpcs_preview(lines: Sequence[str], show_ip: str) -> tuple[str, int, int]:
    """A VPCS's lines against its state as ``show ip`` printed it: a line is there (`` ``) when
    the device already has what it sets (``ip`` address and mask, and the gateway when the line
    gives one; ``set pcname``; ``clear ip``), new (``+``) otherwise. Each line is compared with
    the state the lines before it leave; a line that sets nothing known (``ip dhcp``, ``save``,
    a ping) always runs, so it is ``+``."""
    state = vpcs_settings(show_ip)
    marked: list[str] = []
    new = 0
    for line in lines:
        there, state = _vpcs_line(line, state)
        new += not there
        marked.append(("  " if there else "+ ") + line)
    return "\n".join(marked), new, len(lines) - new


def _vpcs_line(line: str, state: VpcsSettings) -> tuple[bool, VpcsSettings]:
    """Whether ``line`` changes nothing of `state`, and the state after it."""
    words = line.split()
    if words[:1] == ["ip"] and (target := vpcs_ip_target(words[1:])) is not None:
        address, gateway = target
        there = address == state.address and gateway in (None, state.gateway)
        return there, VpcsSettings(state.name, address, gateway or state.gateway)
    if words[:2] == ["set", "pcname"] and len(words) == 3:
        return words[2] == state.name, VpcsSettings(words[2], state.address, state.gateway)
    if words == ["clear", "ip"]:
        there = state.address is None and state.gateway is None
        return there, VpcsSettings(state.name, None, None)
    return False, state


def vpcs_ip_target(args: Sequence[str]) -> tuple[ipaddress.IPv4Interface, str | None] | None:
    """The address/mask and gateway a VPCS ``ip`` command sets, or None for the other forms
    (``dhcp``, ``dns``, IPv6...). VPCS takes ``address[/len] [gateway] [mask]`` in either
    order, the mask as ``/26``, ``26`` or ``255.255.255.192``, /24 when none is given."""
    if not args or len(args) > 3:
        return None
    head, _, length = args[0].partition("/")
    prefix: str | None = length or None
    gateway: str | None = None
    try:
        ipaddress.IPv4Address(head)
        for word in args[1:]:
            if word.removeprefix("/").isdigit() and prefix is None:
                prefix = word.removeprefix("/")
            elif _is_netmask(word) and prefix is None:
                prefix = word
            elif gateway is None:
                gateway = str(ipaddress.IPv4Address(word))
            else:
                return None
        return ipaddress.IPv4Interface(f"{head}/{prefix or 24}"), gateway
    except ValueError:
        return None


def _is_netmask(word: str) -> bool:
    """A dotted mask (``255.255.255.0``): never taken for a gateway."""
    try:
        return ipaddress.IPv4Network(f"0.0.0.0/{word}").prefixlen > 0 and "." in word
    except ValueError:
        return False


def _outcome_card(outcome: DeviceOutcome) -> dict[str, Any]:
    card: dict[str, Any] = {
        "device": outcome.device,
        "ok": outcome.ok,
        "error": outcome.error,
        "results": [
            {
                "command": r.command,
                "output": r.output,
                "truncated": r.truncated,
                "elapsed_s": round(r.elapsed_s, 3),
            }
            for r in outcome.results
        ],
        "refused": [{"command": r.command, "reason": r.reason} for r in outcome.refused],
    }
    changes = config_changes(outcome)
    if changes is not None:
        card["config_diff"] = changes
    for key, read in (
        ("config_before", outcome.config_before),
        ("config_after", outcome.config_after),
    ):
        if read is not None and changes is not None:
            text, cut = truncate_text(read.output, CARD_CONFIG_MAX_CHARS)
            card[key] = {"command": read.command, "text": text, "truncated": cut}
    if outcome.config is not None:
        card["config"] = {
            "lines": outcome.config.lines,
            "rejected": [{"line": r.line, "message": r.message} for r in outcome.config.rejected],
            "output": outcome.config.output,
            "truncated": outcome.config.truncated,
        }
    return card


def device_result(found: list[tuple[Node, DeviceOutcome]], tool: str) -> ToolResult:
    outcomes = [o for _, o in found]
    truncated = any(r.truncated for o in outcomes for r in o.results) or any(
        o.config is not None and o.config.truncated for o in outcomes
    )
    failed = [o.device for o in outcomes if not o.ok]
    rejected = any(o.config is not None and not o.config.ok for o in outcomes)
    structured = {"devices": [_outcome_card(o) for o in outcomes], "failed": failed}
    return ToolResult(
        text="\n\n".join(_outcome_text(o) for o in outcomes),
        structured=with_undo(structured, tool, _restore_steps(found)),
        truncated=truncated,
        is_error=bool(failed) or rejected,
    )


def _restore_steps(found: list[tuple[Node, DeviceOutcome]]) -> list[RestoreConfig]:
    """For each device whose running configuration was read before and after a push that
    changed it: the lines that put it back."""
    steps = []
    for node, outcome in found:
        before, after = outcome.config_before, outcome.config_after
        if before is None or after is None or before.output == after.output:
            continue
        if before.truncated or after.truncated:
            back = RestoreLines(left_out=["the configuration was too long to read whole"])
        else:
            back = restore_lines(before.command, before.output, after.output)
        if back.lines or back.left_out:
            steps.append(
                RestoreConfig(
                    node_id=node.node_id,
                    name=node.name,
                    read_command=before.command,
                    lines=back.lines,
                    left_out=back.left_out,
                )
            )
    return steps
