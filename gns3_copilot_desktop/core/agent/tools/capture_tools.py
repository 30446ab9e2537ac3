"""Packet captures on links: start and stop (changes), and a summary of the file (read).

The summary needs no Wireshark: the pcap/pcapng file is downloaded from the server and parsed by
`pcap.summarize_capture` (packets, protocols, top talkers).
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import Field

from gns3_copilot_desktop.core.agent.context import RunContext
from gns3_copilot_desktop.core.agent.tools import progress
from gns3_copilot_desktop.core.agent.tools.base import AgentTool, ToolResult
from gns3_copilot_desktop.core.agent.tools.common import StrictArgs, error_result, project_topology
from gns3_copilot_desktop.core.agent.tools.link_tools import LinkRef
from gns3_copilot_desktop.core.agent.tools.pcap import CaptureFormatError, summarize_capture
from gns3_copilot_desktop.core.agent.topology import TopologySnapshot
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3.models import Link
from gns3_copilot_desktop.core.gns3.resolve import link_label, resolve_link
from gns3_copilot_desktop.core.text import QT_TRANSLATE_NOOP

MAX_CAPTURE_BYTES = 20_000_000


async def _find_link(ctx: RunContext, ref: LinkRef) -> tuple[Link, TopologySnapshot]:
    topology = await project_topology(ctx)
    link = resolve_link(
        topology.nodes, topology.links, ref.node_a, ref.port_a, ref.node_b, ref.port_b
    )
    return link, topology


def _label(link: Link, topology: TopologySnapshot) -> str:
    return link_label(link, {n.node_id: n for n in topology.nodes})


class CaptureArgs(StrictArgs):
    """The link whose capture to start or stop."""

    link: LinkRef


class StartCaptureTool(AgentTool[CaptureArgs]):
    """Start capturing the packets of a link."""

    name = "start_capture"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Start a capture")
    description = (
        "Start a packet capture on a link (named by its end nodes/ports). The server writes a "
        "pcap file; summarize it with summarize_capture."
    )
    args_schema = CaptureArgs
    risk = "change"

    def summary(self, args: CaptureArgs) -> str:
        """``start capture on R1 e0/0 <-> SW1``."""
        return f"start capture on {args.link.label()}"

    async def run(self, args: CaptureArgs, ctx: RunContext) -> ToolResult:
        """Resolve the link and start its capture (a running capture is left as it is)."""
        try:
            link, topology = await _find_link(ctx, args.link)
            label = _label(link, topology)
            if link.capturing:
                return ToolResult(
                    text=f"{label} is already being captured ({link.capture_file_name}).",
                    structured={"link_id": link.link_id, "file": link.capture_file_name},
                )
            started = await ctx.client.start_capture(ctx.project_id, link.link_id)
        except CopilotError as exc:
            return error_result(exc)
        return ToolResult(
            text=f"Capturing {label} into {started.capture_file_name}.",
            structured={"link_id": link.link_id, "label": label, "file": started.capture_file_name},
        )


class StopCaptureTool(AgentTool[CaptureArgs]):
    """Stop the packet capture of a link."""

    name = "stop_capture"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Stop a capture")
    description = "Stop the packet capture of a link; the capture file stays for summarize_capture."
    args_schema = CaptureArgs
    risk = "change"

    def summary(self, args: CaptureArgs) -> str:
        """``stop capture on R1 e0/0 <-> SW1``."""
        return f"stop capture on {args.link.label()}"

    async def run(self, args: CaptureArgs, ctx: RunContext) -> ToolResult:
        """Resolve the link and stop its capture."""
        try:
            link, topology = await _find_link(ctx, args.link)
            label = _label(link, topology)
            if not link.capturing:
                return ToolResult(
                    text=f"{label} is not being captured.", structured={"link_id": link.link_id}
                )
            await ctx.client.stop_capture(ctx.project_id, link.link_id)
        except CopilotError as exc:
            return error_result(exc)
        return ToolResult(
            text=f"Capture on {label} stopped; the file {link.capture_file_name} is kept.",
            structured={"link_id": link.link_id, "label": label, "file": link.capture_file_name},
        )


class SummarizeCaptureArgs(StrictArgs):
    """Arguments of `SummarizeCaptureTool`."""

    link: LinkRef
    listen_s: float = Field(
        default=3.0, ge=0.5, le=30.0, description="While capturing: how long to read the live file."
    )
    top: int = Field(default=5, ge=1, le=20, description="How many top talkers to list.")


class SummarizeCaptureTool(AgentTool[SummarizeCaptureArgs]):
    """Packets, protocols and top talkers of a link's capture, without Wireshark."""

    name = "summarize_capture"
    display_name = QT_TRANSLATE_NOOP("ToolName", "Read a capture")
    description = (
        "Summarize the packet capture of a link: packet and byte counts, protocols "
        "(ARP, IPv4/IPv6, ICMP, TCP, UDP, well-known ports) and top talkers."
    )
    args_schema = SummarizeCaptureArgs
    risk = "read"

    def summary(self, args: SummarizeCaptureArgs) -> str:
        """``summarize capture of R1 e0/0 <-> SW1``."""
        return f"summarize capture of {args.link.label()}"

    async def run(self, args: SummarizeCaptureArgs, ctx: RunContext) -> ToolResult:
        """Download (a live capture: for ``listen_s``) and parse."""
        try:
            link, topology = await _find_link(ctx, args.link)
            label = _label(link, topology)
            if not link.capturing and not link.capture_file_name:
                return ToolResult.error(
                    f"Error: {label} has no capture; start one with start_capture first."
                )
            if link.capturing:
                progress.report(f"reading the live capture for {args.listen_s:g} s")
            data = await ctx.client.download_capture(
                ctx.project_id, link.link_id, duration=args.listen_s, max_bytes=MAX_CAPTURE_BYTES
            )
        except CopilotError as exc:
            return error_result(exc)
        return await _summary_result(label, link, data, args.top)


async def _summary_result(label: str, link: Link, data: bytes, top: int) -> ToolResult:
    base: dict[str, Any] = {"link_id": link.link_id, "label": label, "file": link.capture_file_name}
    if not data and link.capturing:
        return ToolResult(
            text=(
                f"Capture of {label}: nothing written yet (the capture is running; devices "
                "buffer their writes). Try again after some traffic, or stop the capture first."
            ),
            structured={**base, "packets": 0, "live": True},
        )
    try:
        # ~160k packets/s: a big file would stall the event loop (the UI's) for seconds.
        summary = await asyncio.to_thread(summarize_capture, data)
    except CaptureFormatError as exc:
        return ToolResult.error(f"Error: the capture of {label} could not be read: {exc}.", **base)
    state = " (live, still capturing)" if link.capturing else ""
    return ToolResult(
        text=f"Capture of {label}{state}: " + summary.text(top),
        structured={**base, "live": link.capturing, **summary.as_dict(top)},
        truncated=len(data) >= MAX_CAPTURE_BYTES,
    )


def capture_tools() -> list[AgentTool[Any]]:
    """Start, stop and summarize captures."""
    return [StartCaptureTool(), StopCaptureTool(), SummarizeCaptureTool()]
