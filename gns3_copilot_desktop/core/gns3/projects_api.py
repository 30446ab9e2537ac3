"""The GNS3 client's project calls: projects, their snapshots, drawings, export and import, and the
server's templates."""

from __future__ import annotations

import uuid
from typing import Any

from gns3_copilot_desktop.core.errors import Gns3Error
from gns3_copilot_desktop.core.gns3.archive_check import CheckedArchive
from gns3_copilot_desktop.core.gns3.connection import (
    EMPTY_BODY,
    Gns3Connection,
    parse_model,
    segment,
)
from gns3_copilot_desktop.core.gns3.models import Drawing, Project, ProjectStats, Snapshot, Template


class ProjectsApi(Gns3Connection):
    """Projects and what belongs to a whole project."""

    async def list_projects(self) -> list[Project]:
        """Every project the user may see."""
        return parse_model(list[Project], await self._request("GET", "/projects"), self.base_url)

    async def get_project(self, project_id: str) -> Project:
        """One project."""
        return await self._get_model(Project, f"/projects/{segment(project_id)}")

    async def create_project(
        self, name: str, *, auto_close: bool = False, **fields: Any
    ) -> Project:
        """Create a project; ``auto_close`` is off so it stays open without listeners."""
        body = {"name": name, "auto_close": auto_close, **fields}
        return parse_model(
            Project, await self._request("POST", "/projects", json=body), self.base_url
        )

    async def open_project(self, project_id: str) -> Project:
        """Open a closed project."""
        data = await self._request("POST", f"/projects/{segment(project_id)}/open", json=EMPTY_BODY)
        return parse_model(Project, data, self.base_url)

    async def close_project(self, project_id: str) -> None:
        """Close a project (its nodes stop)."""
        await self._request("POST", f"/projects/{segment(project_id)}/close", json=EMPTY_BODY)

    async def delete_project(self, project_id: str) -> None:
        """Delete a project and its files."""
        await self._request("DELETE", f"/projects/{segment(project_id)}")

    async def update_project(self, project_id: str, **fields: Any) -> Project:
        """Change project fields (name, auto_close, scene size...)."""
        data = await self._request("PUT", f"/projects/{segment(project_id)}", json=fields)
        return parse_model(Project, data, self.base_url)

    async def project_stats(self, project_id: str) -> ProjectStats:
        """Counts of nodes, links, drawings and snapshots."""
        return await self._get_model(ProjectStats, f"/projects/{segment(project_id)}/stats")

    async def list_snapshots(self, project_id: str) -> list[Snapshot]:
        """Every snapshot of a project, oldest first."""
        data = await self._request("GET", f"/projects/{segment(project_id)}/snapshots")
        return parse_model(list[Snapshot], data, self.base_url)

    async def create_snapshot(self, project_id: str, name: str) -> Snapshot:
        """Save a snapshot of the project."""
        data = await self._request(
            "POST", f"/projects/{segment(project_id)}/snapshots", json={"name": name}
        )
        return parse_model(Snapshot, data, self.base_url)

    async def restore_snapshot(self, project_id: str, snapshot_id: str) -> Project:
        """Restore a snapshot; returns the reloaded project."""
        path = f"/projects/{segment(project_id)}/snapshots/{segment(snapshot_id)}/restore"
        return parse_model(
            Project, await self._request("POST", path, json=EMPTY_BODY), self.base_url
        )

    async def list_templates(self) -> list[Template]:
        """Every template (built-in ones included)."""
        return parse_model(list[Template], await self._request("GET", "/templates"), self.base_url)

    async def list_drawings(self, project_id: str) -> list[Drawing]:
        """Every drawing of a project."""
        data = await self._request("GET", f"/projects/{segment(project_id)}/drawings")
        return parse_model(list[Drawing], data, self.base_url)

    async def create_drawing(
        self, project_id: str, svg: str, x: int, y: int, z: int = 1
    ) -> Drawing:
        """Add an SVG drawing to the canvas."""
        body = {"svg": svg, "x": x, "y": y, "z": z}
        data = await self._request("POST", f"/projects/{segment(project_id)}/drawings", json=body)
        return parse_model(Drawing, data, self.base_url)

    async def delete_drawing(self, project_id: str, drawing_id: str) -> None:
        """Delete a drawing."""
        await self._request(
            "DELETE", f"/projects/{segment(project_id)}/drawings/{segment(drawing_id)}"
        )

    async def export_project(self, project_id: str, *, max_bytes: int = 2**31) -> bytes:
        """The project as a GNS3 portable project archive (zip, without images)."""
        received = bytearray()
        await self._stream_into(
            f"/projects/{segment(project_id)}/export?compression=zip", received, max_bytes
        )
        if len(received) >= max_bytes:
            raise Gns3Error("The project is too large to export here.", server=self.base_url)
        return bytes(received)

    async def import_project(self, name: str, archive: CheckedArchive) -> Project:
        """Import a portable project archive as a new project called ``name``. Only an archive
        that passed `check_project_archive` is accepted: GNS3 unpacks what it is given."""
        path = f"/projects/{uuid.uuid4()}/import"
        response = await self._post_content(path, archive.data, params={"name": name})
        return parse_model(Project, response.json(), self.base_url)
