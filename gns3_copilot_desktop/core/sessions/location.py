"""Where a project's conversations, exercises and decision log live.

Always in the app's private data folder, keyed by server and project id
(``{data_dir}/projects/{server}/{project id}/``), never in the project's folder: GNS3 snapshots,
exports and restores zip and unzip the whole project folder, and a restored snapshot must not
rewind a conversation (an applied change would show as awaiting approval again) nor carry it to
another computer. Sharing a conversation is what session export and import are for.

Databases found where older versions kept them (``{project}/.gns3-copilot/``) are moved here on
first open (`core.sessions.migration`).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from pathlib import Path
from urllib.parse import urlsplit

from gns3_copilot_desktop.core.platform import detect_platform

DB_NAME = "copilot_checkpoints.db"
PRACTICE_DB_NAME = "copilot_practice.db"
"""The exercises' own file, beside the project's conversation database (never inside it)."""
DECISIONS_DB_NAME = "decisions.db"
"""The append-only log of decided calls, beside the conversation database (never inside it)."""
PROJECT_SUBDIR = ".gns3-copilot"
"""Where older versions kept a project's databases, inside the project folder."""
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


def project_data_dir(server_url: str, project_id: str, data_dir: Path) -> Path:
    """The private folder of one project of one server (not created)."""
    return data_dir / "projects" / server_key(server_url) / _safe_component(project_id)


def legacy_dir(project_path: str | None) -> Path | None:
    """Where older versions kept the project's databases (None without a project folder)."""
    return Path(project_path) / PROJECT_SUBDIR if project_path else None


def resolve_db_path(server_url: str, project_id: str, data_dir: Path) -> Path:
    """The session database of a project, in an owner-only folder of the app's data folder.

    Creates the folder (0700): from the event loop, call it with ``asyncio.to_thread``.
    """
    folder = project_data_dir(server_url, project_id, data_dir)
    detect_platform().private_dir(folder)
    return folder / DB_NAME
