"""A class on the real GNS3 server of the VPCS lab: GNS3 accounts made through GNS3's own API, a
GNS3 user group, one project per student (two real VPCS hosts, linked, started, addressed)
shared with that student only (GNS3's "User" role on it), and `gns3-copilot serve` started as a
trainer starts it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from gns3_copilot_desktop.core.devices import DeviceJob, run_on_devices, target_for_node
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import LinkEnd
from tests.helpers.gns3_server import free_port

START_TIMEOUT_S = 30.0

TASK = """\
format = 1
title = "PC1 moved"
ticket = "PC1 cannot reach PC2 since this morning."
level = "beginner"
time_limit_min = 15
hints = ["Compare the addresses of PC1 and PC2.", "show ip on PC1."]

[lab]
project = "two-pcs.gns3project"

[[faults]]
device = "PC1"
inject = ["ip 198.51.100.77/24"]
undo = ["ip 192.0.2.1/24"]

[[checks]]
title = "PC1 reaches PC2"
device = "PC1"
command = "ping 192.0.2.2 -c 2"
pass = { ping_max_loss = 50 }
on_pass = "PC1 and PC2 talk again."
on_fail = "PC1 gets no answer from PC2."
points = 70

[[checks]]
title = "PC1 has its address back"
device = "PC1"
command = "show ip"
pass = { contains = "192.0.2.1/24" }
points = 30
"""
SECRET_VALUES = ("198.51.100.77", "ip 192.0.2.1/24")
"""What the answer key holds and no student may read before the answers are released."""


@dataclass
class Account:
    name: str
    password: str
    token: str
    user_id: str
    project_id: str = ""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def login(base_url: str, name: str, password: str) -> str:
    response = httpx.post(
        f"{base_url}/v3/access/users/authenticate", json={"username": name, "password": password}
    )
    response.raise_for_status()
    return str(response.json()["access_token"])


def admin_account(lab: Any) -> Account:
    """The GNS3 server's administrator (the lab's login), the class's trainer."""
    token = login(lab.base_url, lab.username, lab.password)
    me = httpx.get(
        f"{lab.base_url}/v3/access/users/me", headers={"Authorization": f"Bearer {token}"}
    )
    return Account(lab.username, lab.password, token, me.json()["user_id"])


def make_account(base_url: str, admin: Account, prefix: str = "student") -> Account:
    name, password = f"{prefix}{secrets.token_hex(3)}", secrets.token_urlsafe(12)
    made = httpx.post(
        f"{base_url}/v3/access/users",
        json={"username": name, "password": password, "email": f"{name}@class.gns3-lab.org"},
        headers=admin.headers,
    )
    assert made.status_code == 201, made.text
    token = login(base_url, name, password)
    return Account(name, password, token, made.json()["user_id"])


def make_group(base_url: str, admin: Account, members: list[Account]) -> str:
    name = f"class-{secrets.token_hex(3)}"
    made = httpx.post(f"{base_url}/v3/access/groups", json={"name": name}, headers=admin.headers)
    assert made.status_code == 201, made.text
    group_id = made.json()["user_group_id"]
    for member in members:
        added = httpx.put(
            f"{base_url}/v3/access/groups/{group_id}/members/{member.user_id}",
            headers=admin.headers,
        )
        assert added.status_code == 204, added.text
    return name


def share(base_url: str, admin: Account, project_id: str, student: Account) -> None:
    """GNS3's "User" role for that student alone, on the project and on a resource pool holding
    it (GNS3 3.0 lists a project to a non-admin through a pool, as a classroom sets it up)."""
    roles = httpx.get(f"{base_url}/v3/access/roles", headers=admin.headers).json()
    role = next(r for r in roles if r["name"] == "User")
    pool = httpx.post(
        f"{base_url}/v3/pools", json={"name": f"pool-{student.name}"}, headers=admin.headers
    )
    assert pool.status_code == 201, pool.text
    pool_id = pool.json()["resource_pool_id"]
    added = httpx.put(
        f"{base_url}/v3/pools/{pool_id}/resources/{project_id}", headers=admin.headers
    )
    assert added.status_code == 204, added.text
    for path in (f"/projects/{project_id}", f"/pools/{pool_id}"):
        ace = {
            "ace_type": "user",
            "path": path,
            "user_id": student.user_id,
            "role_id": role["role_id"],
            "propagate": True,
            "allowed": True,
        }
        made = httpx.post(f"{base_url}/v3/access/acl", json=ace, headers=admin.headers)
        assert made.status_code == 201, made.text


async def console(client: Gns3Client, project_id: str, name: str, *commands: str) -> str:
    """Type commands on a host's real console; its output."""
    node = next(n for n in await client.list_nodes(project_id) if n.name == name)
    [outcome] = await run_on_devices([DeviceJob(target_for_node(node, client.base_url), commands)])
    assert outcome.ok, outcome.error
    return "\n".join(r.output for r in outcome.results)


async def student_lab(base_url: str, admin: Account, student: Account, hosts: int = 2) -> str:
    """A project with PC1 (192.0.2.1/24) and, with two hosts, PC2 (192.0.2.2/24) linked to it,
    started, shared with the student; its id."""
    async with Gns3Client(base_url, token=admin.token) as client:
        project = await client.create_project(f"lab-{student.name}")
        pid = project.project_id
        pcs = [await client.create_node(pid, f"PC{n}", "vpcs", x=200 * n, y=0)
               for n in range(1, hosts + 1)]  # fmt: skip
        if hosts == 2:
            await client.create_link(
                pid,
                LinkEnd(node_id=pcs[0].node_id, adapter_number=0, port_number=0),
                LinkEnd(node_id=pcs[1].node_id, adapter_number=0, port_number=0),
            )
        await client.start_all_nodes(pid)
        await wait_started(client, pid)
        for n in range(1, hosts + 1):
            await console(client, pid, f"PC{n}", f"ip 192.0.2.{n}/24")
    share(base_url, admin, pid, student)
    student.project_id = pid
    return pid


@dataclass
class Serve:
    url: str
    process: subprocess.Popen[bytes]
    output_path: Path

    def output(self) -> str:
        return self.output_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


def start_serve(gns3_url: str, run_dir: Path, *extra: str, port: int | None = None) -> Serve:
    """``gns3-copilot serve`` in a subprocess, its data in ``run_dir``; waits until it answers.
    The model endpoint is a closed loopback port: the classroom needs no model."""
    port = port or free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "GNS3_COPILOT"))}
    env.update(HOME=str(run_dir / "home"), OPENAI_API_KEY="sk-unused", NO_PROXY="127.0.0.1")
    output_path = run_dir / f"serve-{port}.log"
    with output_path.open("ab") as output:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "gns3_copilot_desktop", "serve",
                "--gns3-server", gns3_url, "--port", str(port),
                "--data-dir", str(run_dir / "data"),
                "--model-base-url", "http://127.0.0.1:9/v1", "--model", "unused",
                *extra,
            ],
            stdout=output, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/classroom", timeout=1).status_code == 200:
                break
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"serve did not start:\n{output_path.read_text()}")
        time.sleep(0.1)  # polling the port until the service answers
    return Serve(url, process, output_path)


@contextlib.contextmanager
def serving(gns3_url: str, run_dir: Path, *extra: str) -> Iterator[Serve]:
    serve = start_serve(gns3_url, run_dir, *extra)
    try:
        yield serve
    finally:
        serve.stop()


@dataclass
class Class:
    base_url: str
    run_dir: Path
    serve: Serve
    trainer: Account
    alice: Account
    bob: Account
    outsider: Account
    group: str
    seen_by_students: list[str] = field(default_factory=list)
    """Every body a student was sent (the leak scan reads them all)."""

    def call(self, who: Account, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response = httpx.request(
            method, f"{self.serve.url}{path}", headers=who.headers, timeout=120, **kwargs
        )
        if who is not self.trainer:
            self.seen_by_students.append(response.text)
        return response

    def start(
        self, who: Account, exam_id: str, task_id: str, project: Account | None = None
    ) -> httpx.Response:
        """``who`` starts a task of an exam in their own project (or ``project``'s)."""
        project_id = (project or who).project_id
        path = f"/v3/classroom/exams/{exam_id}/tasks/{task_id}/start"
        return self.call(who, "POST", path, json={"project_id": project_id})

    def restart(self, *extra: str) -> None:
        """The service stopped and started again on the same port and records."""
        port = int(self.serve.url.rsplit(":", 1)[1])
        self.serve.stop()
        self.serve = start_serve(self.base_url, self.run_dir, *extra, port=port)


def upload_task(serve: Serve, trainer: Account, text: str = TASK) -> dict[str, Any]:
    made = httpx.post(
        f"{serve.url}/v3/classroom/tasks",
        json={"name": "moved.toml", "text": text},
        headers=trainer.headers,
    )
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def open_exam(
    serve: Serve, trainer: Account, task_id: str, group: str, **fields: Any
) -> dict[str, Any]:
    """A 30-minute exam of one task for the group (``fields`` change it)."""
    body = {"title": "Week 3 quiz", "task_ids": [task_id], "group": group, "duration_min": 30}
    made = httpx.post(
        f"{serve.url}/v3/classroom/exams", json={**body, **fields}, headers=trainer.headers
    )
    assert made.status_code == 201, made.text
    exam: dict[str, Any] = made.json()
    return exam


@contextlib.contextmanager
def live_events(
    url: str, headers: dict[str, str], verify: Any = True
) -> Iterator[queue.Queue[dict[str, Any]]]:
    """A trainer's live view of an exam (``…/events``), read on a thread: each event's data in
    the queue as it comes, the heartbeats left out. Asserts the stream opened (200)."""
    events: queue.Queue[dict[str, Any]] = queue.Queue()
    opened, stopping = threading.Event(), threading.Event()
    status: list[int] = []
    failures: list[BaseException] = []
    client = httpx.Client(timeout=httpx.Timeout(10, read=60), verify=verify)

    def read() -> None:
        try:
            with client.stream("GET", url, headers=headers) as response:
                status.append(response.status_code)
                opened.set()
                for line in response.iter_lines():
                    if line.startswith("data: "):
                        events.put(json.loads(line[len("data: ") :]))
        except Exception as exc:  # the client closed under it at the end is no failure
            if not stopping.is_set():
                failures.append(exc)
        finally:
            opened.set()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    try:
        assert opened.wait(30) and status == [200], (status, failures)
        yield events
    finally:
        stopping.set()
        client.close()
        thread.join(10)
    assert not failures, failures


SWITCHED = {"PC1": "192.0.2.1", "PC2": "192.0.2.10", "PC3": "192.0.2.20"}
GATEWAY = "192.0.2.254"

SWITCHED_TASK = """\
format = 1
title = "PC1 off the subnet"
ticket = "PC1 reaches nobody since the weekend; PC2 and PC3 are fine."
level = "beginner"
time_limit_min = 20
hints = ["Compare PC1's address and gateway with its neighbours'."]

[lab]
project = "switched.gns3project"

[[faults]]
device = "PC1"
inject = ["ip 198.51.100.1/24 198.51.100.254", "save"]
undo = ["ip 192.0.2.1/24 192.0.2.254", "save"]

[[checks]]
title = "PC1 reaches PC3 across SW1"
device = "PC1"
command = "ping 192.0.2.20 -c 2"
pass = { ping_max_loss = 50 }
on_fail = "PC1 gets no answer from PC3."
points = 40

[[checks]]
title = "PC1 reaches PC2"
device = "PC1"
command = "ping 192.0.2.10 -c 2"
pass = { ping_max_loss = 50 }
on_fail = "PC1 gets no answer from PC2."
points = 40

[[checks]]
title = "PC2 still reaches PC3"
device = "PC2"
command = "ping 192.0.2.20 -c 2"
pass = { ping_max_loss = 50 }
points = 20
"""
"""A fault of the trainer's own on a switched lab; saved on PC1, so that it outlives a restart
of the host (VPCS reads its saved startup script when it starts)."""


async def wait_started(client: Gns3Client, project_id: str) -> None:
    """Until GNS3 says every node of the project runs (bounded)."""
    async with asyncio.timeout(60):
        while any(n.status != "started" for n in await client.list_nodes(project_id)):  # noqa: ASYNC110
            await asyncio.sleep(0.3)  # the server's state, polled


async def switched_student_lab(base_url: str, admin: Account, student: Account) -> str:
    """A project as a class builds it: a real dynamips Ethernet switch SW1 and PC1..PC3 (VPCS)
    on its ports 1..3, addressed with a gateway (saved), started, shared with the student; its
    id. Every link is made before a host starts: Debian's dynamips 0.2.14 can deadlock when a
    frame arrives while a port is added."""
    async with Gns3Client(base_url, token=admin.token) as client:
        pid = (await client.create_project(f"switched-{student.name}")).project_id
        switch = await client.create_node(pid, "SW1", "ethernet_switch", x=0, y=-120)
        for n, name in enumerate(SWITCHED, 1):
            pc = await client.create_node(pid, name, "vpcs", x=-300 + 150 * n, y=80)
            await client.create_link(
                pid,
                LinkEnd(node_id=pc.node_id, adapter_number=0, port_number=0),
                LinkEnd(node_id=switch.node_id, adapter_number=0, port_number=n),
            )
        await client.start_all_nodes(pid)
        await wait_started(client, pid)
        for name, address in SWITCHED.items():
            await console(client, pid, name, f"ip {address}/24 {GATEWAY}", "save")
    share(base_url, admin, pid, student)
    student.project_id = pid
    return pid
