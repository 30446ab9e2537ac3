"""The GNS3 client's link calls: link and unlink ports, suspend links or filter their packets, and
capture their traffic."""

from __future__ import annotations

import asyncio
from typing import Any

from gns3_copilot_desktop.core.errors import Gns3Error
from gns3_copilot_desktop.core.gns3.connection import (
    EMPTY_BODY,
    Gns3Connection,
    parse_model,
    segment,
)
from gns3_copilot_desktop.core.gns3.models import Link, LinkEnd


class LinksApi(Gns3Connection):
    """The links of a project and their packet captures."""

    async def list_links(self, project_id: str) -> list[Link]:
        """Every link of a project."""
        data = await self._request("GET", f"/projects/{segment(project_id)}/links")
        return parse_model(list[Link], data, self.base_url)

    async def get_link(self, project_id: str, link_id: str) -> Link:
        """One link."""
        return await self._get_model(
            Link, f"/projects/{segment(project_id)}/links/{segment(link_id)}"
        )

    async def create_link(self, project_id: str, a: LinkEnd, b: LinkEnd) -> Link:
        """Link two node ports (409 :class:`Gns3ConflictError` when a port is in use)."""
        ends = [end.model_dump(exclude_none=True) for end in (a, b)]
        data = await self._request(
            "POST", f"/projects/{segment(project_id)}/links", json={"nodes": ends}
        )
        return parse_model(Link, data, self.base_url)

    async def update_link(
        self,
        project_id: str,
        link_id: str,
        *,
        suspend: bool | None = None,
        filters: dict[str, list[int | str]] | None = None,
    ) -> Link:
        """Suspend or resume a link, or set its packet filters (``{"packet_loss": [30]}``;
        ``{}`` clears them). Only the fields given are sent."""
        body: dict[str, Any] = {}
        if suspend is not None:
            body["suspend"] = suspend
        if filters is not None:
            body["filters"] = filters
        path = f"/projects/{segment(project_id)}/links/{segment(link_id)}"
        return parse_model(Link, await self._request("PUT", path, json=body), self.base_url)

    async def link_filters(self, project_id: str, link_id: str) -> list[str]:
        """The packet filters the link's compute can apply (none when its traffic does not pass
        through ubridge, e.g. between two dynamips switches)."""
        path = f"/projects/{segment(project_id)}/links/{segment(link_id)}/available_filters"
        data = await self._request("GET", path)
        return (
            [str(f.get("type")) for f in data if isinstance(f, dict)]
            if isinstance(data, list)
            else []
        )

    async def delete_link(self, project_id: str, link_id: str) -> None:
        """Delete a link."""
        await self._request("DELETE", f"/projects/{segment(project_id)}/links/{segment(link_id)}")

    async def start_capture(
        self,
        project_id: str,
        link_id: str,
        *,
        data_link_type: str = "DLT_EN10MB",
        capture_file_name: str | None = None,
    ) -> Link:
        """Start a packet capture on a link; returns the link with its capture file."""
        body: dict[str, Any] = {"data_link_type": data_link_type}
        if capture_file_name is not None:
            body["capture_file_name"] = capture_file_name
        path = f"/projects/{segment(project_id)}/links/{segment(link_id)}/capture/start"
        return parse_model(Link, await self._request("POST", path, json=body), self.base_url)

    async def stop_capture(self, project_id: str, link_id: str) -> None:
        """Stop the packet capture of a link."""
        path = f"/projects/{segment(project_id)}/links/{segment(link_id)}/capture/stop"
        await self._request("POST", path, json=EMPTY_BODY)

    async def download_capture(
        self, project_id: str, link_id: str, *, duration: float = 2.0, max_bytes: int = 10_000_000
    ) -> bytes:
        """The pcap of a link's capture.

        While the capture runs, the server streams the file for as long as it is written, so this
        reads the stream for at most ``duration`` seconds or ``max_bytes`` bytes (dynamips buffers
        its writes: a quiet link may have written nothing yet). Once the capture is stopped, the
        finished file is downloaded from the project's files.
        """
        link = await self.get_link(project_id, link_id)
        if not link.capturing:
            return await self._finished_capture(project_id, link)
        path = f"/projects/{segment(project_id)}/links/{segment(link_id)}/capture/stream"
        received = bytearray()
        try:
            async with asyncio.timeout(duration):
                await self._stream_into(path, received, max_bytes)
        except TimeoutError:
            pass  # the stream is endless while capturing: the duration is the normal end
        return bytes(received)

    async def _finished_capture(self, project_id: str, link: Link) -> bytes:
        if not link.capture_file_name:
            raise Gns3Error(
                f"Link {link.link_id} has no packet capture to download.", server=self.base_url
            )
        captures = f"/projects/{segment(project_id)}/files/project-files/captures"
        path = f"{captures}/{segment(link.capture_file_name)}"
        received = bytearray()
        await self._stream_into(path, received, max_bytes=2**62)
        return bytes(received)
