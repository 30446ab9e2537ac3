"""Several devices at once: one device failing never fails the others."""

from __future__ import annotations

import asyncio
import time

import pytest

from gns3_copilot_desktop.core.devices.batch import DeviceJob, run_on_devices
from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
)
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from tests.helpers.telnet_lab import IosDevice, LinuxDevice, StalledDevice, TelnetLab, VpcsDevice

pytestmark = pytest.mark.asyncio

OPTIONS = ConsoleOptions(connect_timeout=3, login_timeout=1.0, command_timeout=3)


async def test_several_devices_with_one_down_one_stalled_one_refused(
    telnet_lab: TelnetLab,
) -> None:
    pcs = [VpcsDevice(name=f"PC{n}") for n in range(1, 4)]
    running = [await telnet_lab.start(pc) for pc in pcs]
    router = await telnet_lab.start(IosDevice())
    stalled = await telnet_lab.start(StalledDevice())
    down_port = await telnet_lab.unused_port()
    jobs = [
        *(DeviceJob(ConsoleTarget(r.device.name, r.host, r.port), ("show ip",)) for r in running),
        DeviceJob(
            ConsoleTarget("R1", router.host, router.port, DeviceKind.IOS),
            ("show version",),
            ("interface Ethernet0/2", "no shutdown"),
            DeviceCredentials("admin", "lab-password", "lab-enable"),
        ),
        DeviceJob(ConsoleTarget("DOWN", "127.0.0.1", down_port), ("show ip",)),
        DeviceJob(ConsoleTarget("STUCK", stalled.host, stalled.port), ("show ip",)),
        DeviceJob(ConsoleTarget("PC9", running[0].host, running[0].port), ("show ip", "rel")),
    ]
    started = time.monotonic()
    outcomes = await run_on_devices(jobs, OPTIONS)
    elapsed = time.monotonic() - started

    assert [o.device for o in outcomes] == ["PC1", "PC2", "PC3", "R1", "DOWN", "STUCK", "PC9"]
    for outcome, pc in zip(outcomes[:3], pcs, strict=True):
        assert outcome.ok and outcome.results[0].output.startswith(f"NAME        : {pc.name}[1]")
    r1 = outcomes[3]
    assert r1.ok and r1.results[0].output.startswith("Cisco IOS Software")
    assert r1.config is not None and r1.config.ok
    assert outcomes[4].error is not None and "Cannot reach the console of DOWN" in outcomes[4].error
    assert outcomes[5].error is not None and "STUCK: no prompt" in outcomes[5].error
    assert outcomes[6].refused and outcomes[6].refused[0].command == "rel"
    assert pcs[0].received.count("show ip") == 1  # the refused job sent nothing at all
    # Concurrent: the stalled device's login timeout is paid once, not after the others.
    assert elapsed < 2 * OPTIONS.login_timeout + 1.5


async def test_parallelism_is_bounded(telnet_lab: TelnetLab) -> None:
    running = [await telnet_lab.start(LinuxDevice(name=f"h{n}")) for n in range(4)]
    creds = DeviceCredentials("user", "lab-linux")
    open_now = 0
    most_open = 0

    class CountingConsole(DeviceConsole):
        async def __aenter__(self) -> DeviceConsole:
            nonlocal open_now, most_open
            open_now += 1
            most_open = max(most_open, open_now)
            await asyncio.sleep(0)  # give the other jobs a chance to start
            return await super().__aenter__()

        async def __aexit__(self, *exc: object) -> None:
            nonlocal open_now
            open_now -= 1
            await super().__aexit__(None, None, None)

    jobs = [
        DeviceJob(ConsoleTarget(r.device.name, r.host, r.port), ("echo hi",), (), creds)
        for r in running
    ]
    outcomes = await run_on_devices(jobs, OPTIONS, max_parallel=2, console_factory=CountingConsole)
    assert all(o.ok and o.results[0].output == "hi" for o in outcomes)
    assert most_open == 2


async def test_a_node_just_started_is_waited_for_through_a_silent_boot(
    telnet_lab: TelnetLab,
) -> None:
    """A router a plan has just started keeps its serial console silent while it boots (its
    kernel lines are kept off it): its first prompt is awaited for the boot's time, while the
    same silence on a node that was running is a console that does not answer."""
    options = ConsoleOptions(
        connect_timeout=3, login_timeout=0.5, boot_timeout=10, command_timeout=3
    )
    login = DeviceCredentials("user", "lab-linux")
    booting = [await telnet_lab.start(LinuxDevice(name=f"r{n}", silent_s=2.0)) for n in (1, 2)]
    jobs = [
        DeviceJob(
            ConsoleTarget(r.device.name, r.host, r.port), ("echo up",), credentials=login,
            just_started=started,
        )
        for r, started in zip(booting, (True, False), strict=True)
    ]  # fmt: skip
    started_job, running_job = await run_on_devices(jobs, options)
    assert started_job.ok and started_job.results[0].output == "up", started_job
    assert running_job.error is not None and "no prompt" in running_job.error, running_job
