"""Where a project's session database lives.

Next to the project (``{project_path}/.gns3-copilot/copilot_checkpoints.db``) when the GNS3 server
runs on this machine and that folder is writable, so the conversations travel with the project;
otherwise under the app's data dir, keyed by server and project id. A database that already exists
in either place wins, so the session list does not change when, say, the folder becomes read-only.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import uuid
from pathlib import Path
from urllib.parse import urlsplit

DB_NAME = "copilot_checkpoints.db"
PROJECT_SUBDIR = ".gns3-copilot"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def is_local_server(server_url: str) -> bool:
    """True when the URL's host is this machine's loopback (localhost, 127.0.0.0/8, ::1)."""
    host = (urlsplit(server_url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def server_key(server_url: str) -> str:
    """A file-name-safe, stable key for a server URL (readable part + short hash)."""
    parts = urlsplit(server_url.strip())
    host = parts.hostname or "unknown"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    readable = _UNSAFE.sub("_", f"{parts.scheme or 'http'}_{host}_{port}").strip("._")
    normalized = f"{parts.scheme}://{host}:{port}{parts.path.rstrip('/')}".lower()
    digest = hashlib.sha256(normalized.encode()).hexdigest()[:8]
    return f"{readable}-{digest}"


def _safe_component(value: str) -> str:
    cleaned = _UNSAFE.sub("_", value).strip("._")
    return cleaned or hashlib.sha256(value.encode()).hexdigest()[:16]


def _writable_dir(folder: Path) -> bool:
    """Create ``folder`` (its parent must exist) and prove it is writable with a probe file."""
    if not folder.parent.is_dir():
        return False
    probe = folder / f".write-probe-{uuid.uuid4().hex}"
    try:
        folder.mkdir(exist_ok=True)
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True


def resolve_db_path(
    server_url: str, project_id: str, project_path: str | None, data_dir: Path
) -> Path:
    """The session database of a project (see the module docstring for the rule).

    Touches the file system (stat, mkdir, a probe file): from the event loop, call it with
    ``asyncio.to_thread``.
    """
    fallback = (
        data_dir / "projects" / server_key(server_url) / _safe_component(project_id) / DB_NAME
    )
    local = bool(project_path) and is_local_server(server_url)
    beside_project = Path(project_path) / PROJECT_SUBDIR / DB_NAME if project_path else None
    if local and beside_project is not None and beside_project.is_file():
        return beside_project
    if fallback.is_file():
        return fallback
    if local and beside_project is not None and _writable_dir(beside_project.parent):
        return beside_project
    fallback.parent.mkdir(parents=True, exist_ok=True)
    return fallback
