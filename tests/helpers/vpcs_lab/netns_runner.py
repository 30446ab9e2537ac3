"""Runs inside the lab's namespaces (see the package docstring): start VPCS, run device jobs.

Reads a JSON spec on stdin::

    {"vpcs": "/path/to/vpcs", "work_dir": "...",
     "pcs": [{"name": "PC1", "console": 5001, "udp_local": 20000, "udp_remote": 20001}, ...],
     "stages": [[{"device": "PC1", "config_lines": [...], "commands": [...]}, ...], ...]}

and prints one JSON line: per stage, the `DeviceOutcome`s of `run_on_devices` (the jobs of a
stage run at once, stages one after the other). A job ``{"device": "PC1", "raw": [...]}`` instead
types its lines into the console as they are, past every check of the app (to show that an attack
is real), and reports what the console printed. Every process started here
dies with the PID namespace when this script (its PID 1) exits.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from gns3_copilot_desktop.core.devices import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceConsole,
    DeviceJob,
    DeviceKind,
    run_on_devices,
)

LISTEN_TIMEOUT_S = 10.0


def _start_pc(vpcs: str, work_dir: Path, index: int, pc: dict[str, Any]) -> None:
    home = work_dir / pc["name"]
    home.mkdir()
    args = ["-i", "1", "-p", str(pc["console"]), "-m", str(index)]
    args += ["-s", str(pc["udp_local"]), "-c", str(pc["udp_remote"])]
    # vpcs -p daemonises: the parent returns once the child runs.
    subprocess.run([vpcs, *args], cwd=home, check=True, stdout=subprocess.DEVNULL)


def _wait_listening(port: int) -> None:
    deadline = time.monotonic() + LISTEN_TIMEOUT_S
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


async def _run(spec: dict[str, Any]) -> list[list[dict[str, Any]]]:
    return [await _stage(spec, jobs) for jobs in spec["stages"]]


async def _type_raw(name: str, port: int, lines: list[str]) -> dict[str, Any]:
    """Type ``lines`` into a console as they are (the app's console session wakes it and keeps
    step, the bytes go past its checks), then ``show ip`` to know they have run."""
    target = ConsoleTarget(name, "127.0.0.1", port, DeviceKind.VPCS)
    async with DeviceConsole(target, None, ConsoleOptions(command_timeout=15)) as console:
        for line in lines:
            console._writer.write(line.encode() + b"\r\n")  # past the gate
        [result] = await console.run_commands(["show ip"])
    return {"raw": result.output}


async def _stage(spec: dict[str, Any], stage: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ports = {pc["name"]: pc["console"] for pc in spec["pcs"]}
    if any("raw" in job for job in stage):
        return [await _type_raw(job["device"], ports[job["device"]], job["raw"]) for job in stage]
    jobs = [
        DeviceJob(
            ConsoleTarget(job["device"], "127.0.0.1", ports[job["device"]], DeviceKind.VPCS),
            tuple(job.get("commands", ())),
            tuple(job.get("config_lines", ())),
        )
        for job in stage
    ]
    options = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=15)
    return [dataclasses.asdict(o) for o in await run_on_devices(jobs, options)]


def main() -> None:
    """Bring loopback up, start the PCs, run the jobs, print the report."""
    spec = json.load(sys.stdin)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    for index, pc in enumerate(spec["pcs"]):
        _start_pc(spec["vpcs"], Path(spec["work_dir"]), index, pc)
    for pc in spec["pcs"]:
        _wait_listening(pc["console"])
    print(json.dumps(asyncio.run(_run(spec)), default=str))


if __name__ == "__main__":
    main()
