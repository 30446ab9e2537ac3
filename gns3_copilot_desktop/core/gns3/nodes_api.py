"""The GNS3 client's node calls: create, change, power and delete nodes, and read or write the
files of a node's folder."""

from __future__ import annotations

from typing import Any

from gns3_copilot_desktop.core.errors import Gns3NotFoundError
from gns3_copilot_desktop.core.gns3.connection import (
    EMPTY_BODY,
    Gns3Connection,
    parse_model,
    segment,
)
from gns3_copilot_desktop.core.gns3.models import Link, Node


class NodesApi(Gns3Connection):
    """The nodes of a project."""

    async def list_nodes(self, project_id: str) -> list[Node]:
        """Every node of a project."""
        data = await self._request("GET", f"/projects/{segment(project_id)}/nodes")
        return parse_model(list[Node], data, self.base_url)

    async def get_node(self, project_id: str, node_id: str) -> Node:
        """One node."""
        return await self._get_model(
            Node, f"/projects/{segment(project_id)}/nodes/{segment(node_id)}"
        )

    async def create_node(
        self,
        project_id: str,
        name: str,
        node_type: str,
        *,
        x: int = 0,
        y: int = 0,
        compute_id: str = "local",
        **props: Any,
    ) -> Node:
        """Create a node by type; ``props`` are further node fields (e.g. ``properties={...}``)."""
        body = {"name": name, "node_type": node_type, "compute_id": compute_id, "x": x, "y": y}
        body.update(props)
        data = await self._request("POST", f"/projects/{segment(project_id)}/nodes", json=body)
        return parse_model(Node, data, self.base_url)

    async def create_node_from_template(
        self, project_id: str, template_id: str, *, x: int, y: int, name: str | None = None
    ) -> Node:
        """Create a node from a template at (x, y)."""
        body: dict[str, Any] = {"x": x, "y": y, "compute_id": "local"}
        if name is not None:
            body["name"] = name
        path = f"/projects/{segment(project_id)}/templates/{segment(template_id)}"
        return parse_model(Node, await self._request("POST", path, json=body), self.base_url)

    async def update_node(self, project_id: str, node_id: str, **fields: Any) -> Node:
        """Change node fields (name, x, y, properties...)."""
        path = f"/projects/{segment(project_id)}/nodes/{segment(node_id)}"
        return parse_model(Node, await self._request("PUT", path, json=fields), self.base_url)

    async def delete_node(self, project_id: str, node_id: str) -> None:
        """Delete a node (and its links)."""
        await self._request("DELETE", f"/projects/{segment(project_id)}/nodes/{segment(node_id)}")

    async def start_node(self, project_id: str, node_id: str) -> None:
        """Start one node."""
        await self._node_action(project_id, node_id, "start")

    async def stop_node(self, project_id: str, node_id: str) -> None:
        """Stop one node."""
        await self._node_action(project_id, node_id, "stop")

    async def suspend_node(self, project_id: str, node_id: str) -> None:
        """Suspend one node."""
        await self._node_action(project_id, node_id, "suspend")

    async def reload_node(self, project_id: str, node_id: str) -> None:
        """Reload (restart) one node."""
        await self._node_action(project_id, node_id, "reload")

    async def start_all_nodes(self, project_id: str) -> None:
        """Start every node of the project."""
        await self._node_action(project_id, None, "start")

    async def stop_all_nodes(self, project_id: str) -> None:
        """Stop every node of the project."""
        await self._node_action(project_id, None, "stop")

    async def suspend_all_nodes(self, project_id: str) -> None:
        """Suspend every node of the project."""
        await self._node_action(project_id, None, "suspend")

    async def reload_all_nodes(self, project_id: str) -> None:
        """Reload every node of the project."""
        await self._node_action(project_id, None, "reload")

    async def node_links(self, project_id: str, node_id: str) -> list[Link]:
        """The links attached to one node."""
        data = await self._request(
            "GET", f"/projects/{segment(project_id)}/nodes/{segment(node_id)}/links"
        )
        return parse_model(list[Link], data, self.base_url)

    async def read_node_file(
        self, project_id: str, node_id: str, path: str, *, max_bytes: int = 256_000
    ) -> str | None:
        """A small text file of a node's folder (e.g. a VPCS's ``startup.vpc``), or None when the
        node has none (or it is larger than ``max_bytes`` or not UTF-8 text)."""
        received = bytearray()
        segments = "/".join(segment(part) for part in path.split("/"))
        try:
            await self._stream_into(
                f"/projects/{segment(project_id)}/nodes/{segment(node_id)}/files/{segments}",
                received,
                max_bytes + 1,
            )
        except Gns3NotFoundError:
            return None
        if len(received) > max_bytes:
            return None
        try:
            return received.decode("utf-8")
        except UnicodeDecodeError:
            return None

    async def write_node_file(self, project_id: str, node_id: str, path: str, text: str) -> None:
        """Write a text file into a node's folder."""
        segments = "/".join(segment(part) for part in path.split("/"))
        url = f"/projects/{segment(project_id)}/nodes/{segment(node_id)}/files/{segments}"
        await self._post_content(url, text.encode("utf-8"))

    async def _node_action(self, project_id: str, node_id: str | None, action: str) -> None:
        target = f"/nodes/{segment(node_id)}" if node_id else "/nodes"
        await self._request(
            "POST", f"/projects/{segment(project_id)}{target}/{action}", json=EMPTY_BODY
        )
