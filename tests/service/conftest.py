"""What the service's tests share: GNS3 users (an admin and a student made through GNS3's own
API), a project shared with the student, and the SSE parser."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from tests.helpers.gns3_server import Gns3Server


@dataclass
class User:
    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def _login(server: Gns3Server, username: str, password: str) -> str:
    response = httpx.post(
        f"{server.base_url}/v3/access/users/authenticate",
        json={"username": username, "password": password},
    )
    response.raise_for_status()
    return str(response.json()["access_token"])


@pytest.fixture(scope="module")
def admin(gns3_server: Gns3Server) -> User:
    return User("admin", _login(gns3_server, gns3_server.username, gns3_server.password))


@pytest.fixture(scope="module")
def student(gns3_server: Gns3Server, admin: User) -> User:
    """A second GNS3 user, made through GNS3's own API."""
    name, password = f"student{secrets.token_hex(3)}", secrets.token_urlsafe(12)
    made = httpx.post(
        f"{gns3_server.base_url}/v3/access/users",
        json={"username": name, "password": password, "email": f"{name}@students.gns3-lab.org"},
        headers=admin.headers,
    )
    assert made.status_code == 201, made.text
    return User(name, _login(gns3_server, name, password))


@pytest.fixture(scope="module")
def shared_project(
    gns3_server: Gns3Server, admin: User, student: User, project: dict[str, Any]
) -> dict[str, Any]:
    """The project, shared with the student: GNS3's "User" role on it (an ACE), so GNS3 lets
    both in and only the service's ownership keeps their sessions apart."""
    base = f"{gns3_server.base_url}/v3/access"
    role = next(
        r for r in httpx.get(f"{base}/roles", headers=admin.headers).json() if r["name"] == "User"
    )
    me = httpx.get(f"{base}/users/me", headers=student.headers).json()
    ace = {
        "ace_type": "user",
        "path": f"/projects/{project['project_id']}",
        "user_id": me["user_id"],
        "role_id": role["role_id"],
        "propagate": True,
        "allowed": True,
    }
    made = httpx.post(f"{base}/acl", json=ace, headers=admin.headers)
    assert made.status_code == 201, made.text
    seen = httpx.get(
        f"{gns3_server.base_url}/v3/projects/{project['project_id']}", headers=student.headers
    )
    assert seen.status_code == 200, seen.text
    return project


@pytest.fixture(scope="module")
def project(gns3_server: Gns3Server, admin: User) -> Iterator[dict[str, Any]]:
    url = f"{gns3_server.base_url}/v3/projects"
    response = httpx.post(
        url,
        json={"name": f"serve-{secrets.token_hex(3)}", "auto_close": False},
        headers=admin.headers,
    )
    response.raise_for_status()
    made: dict[str, Any] = response.json()
    yield made
    httpx.delete(f"{url}/{made['project_id']}", headers=admin.headers)


def sse_events(lines: Iterable[str]) -> list[dict[str, Any]]:
    """Parse Server-Sent Events: ``data: {json}`` lines, events separated by blank lines."""
    events: list[dict[str, Any]] = []
    data: list[str] = []
    for line in lines:
        if line.startswith("data: "):
            data.append(line[len("data: ") :])
        elif line == "" and data:
            events.append(json.loads("\n".join(data)))
            data = []
    assert not data, "the stream ended inside an event"
    return events
