"""The console on a REAL router: the project's FRR appliance booted by the real GNS3 server.

One router (``frr_router``, session-scoped) serves these tests; its serial console is the GNS3
telnet console. They cover the login that lands in vtysh, vtysh's prompts in every mode, a command
vtysh refuses (``% Unknown command``) reported as that line's failure, and the round trip of a
``show`` command, a real pager, and a router that reloads while the console connects: the console
waits through the kernel's boot lines for the login. The reload is the router's own (a reset from
its shell), which GNS3's console relay carries through.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace

import pytest

from gns3_copilot_desktop.core.devices import (
    DeviceConsole,
    DeviceCredentials,
    DeviceKind,
    PromptMode,
)
from gns3_copilot_desktop.core.devices.ping import ping_answered
from gns3_copilot_desktop.core.errors import DeviceError
from tests.helpers.frr_router import (
    _FACTS,
    BOOT_TIMEOUT_S,
    ROUTER_PASSWORD,
    ROUTER_USER,
    SHELL_USER,
    FrrRouter,
    log_out,
)

pytestmark = [pytest.mark.gns3, pytest.mark.asyncio, pytest.mark.slow]


async def test_the_router_boots_to_a_login_that_lands_in_vtysh(frr_router: FrrRouter) -> None:
    assert 0 < frr_router.boot_to_login_s < BOOT_TIMEOUT_S
    await log_out(frr_router)
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        assert con.prompt is not None
        assert (con.prompt.kind, con.prompt.mode) == (DeviceKind.IOS, PromptMode.PRIVILEGED)
        assert con.prompt.text.rstrip() == "router#"
        version = await con.run_command("show version")
    assert "FRRouting 8.4" in version.output and version.error is None, version.output
    assert "router#" not in version.output and "show version" not in version.output


async def test_a_wrong_password_is_a_login_failure_not_a_hang(frr_router: FrrRouter) -> None:
    await log_out(frr_router)
    wrong = DeviceCredentials(ROUTER_USER, "not-the-password")
    started = time.monotonic()
    with pytest.raises(DeviceError, match="Login to R1 failed: check the credentials"):
        async with DeviceConsole(frr_router.target, wrong, frr_router.options) as con:
            await con.run_command("show version")
    assert time.monotonic() - started < 30  # login(1) waits ~3 s before "Login incorrect"


async def test_vtysh_prompts_in_every_mode_and_a_refused_line_fails_alone(
    frr_router: FrrRouter,
) -> None:
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        seen = [await con.run_command(c) for c in ("configure terminal", "interface eth3")]
        seen += [await con.run_command(c) for c in ("router ospf", "end")]
        assert [r.prompt.rstrip() for r in seen] == [
            "router(config)#",
            "router(config-if)#",
            "router(config-router)#",
            "router#",
        ]
        assert con.prompt is not None and con.prompt.mode is PromptMode.PRIVILEGED
        pushed = await con.push_config(
            ["interface eth3", "description lab-uplink", "frobnicate the router", "exit"]
        )
        reads = await con.run_commands(["show frobnicate", "show running-config"])
        cleanup = await con.push_config(
            ["interface eth3", "no description", "exit", "no router ospf"]
        )
        after = await con.run_command("show running-config")
    # the refused line is the only failure, with vtysh's own words; the others were applied
    assert [(r.line, r.message) for r in pushed.rejected] == [
        ("frobnicate the router", "% Unknown command: frobnicate the router")
    ], pushed.output
    assert reads[0].error == "% Unknown command: show frobnicate"
    assert reads[1].error is None and " description lab-uplink" in reads[1].output
    assert cleanup.ok and "lab-uplink" not in after.output


async def test_show_round_trip_on_the_real_console(frr_router: FrrRouter) -> None:
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        results = await con.run_commands(["show interface brief"] * 5)
    assert all(r.output.count("eth") == 4 for r in results), [r.output for r in results]
    median = statistics.median(r.elapsed_s for r in results)
    _FACTS["show round trip (median of 5)"] = f"{median * 1000:.0f} ms"
    assert median < 5.0


async def test_a_ping_vtysh_never_ends_is_stopped_and_the_console_goes_on(
    frr_router: FrrRouter,
) -> None:
    # FRR's vtysh takes no count: its ``ping`` runs the shell's ping until Ctrl-C
    options = replace(frr_router.options, ping_stop_s=4.0)
    async with DeviceConsole(frr_router.target, frr_router.credentials, options) as con:
        ping = await con.run_command("ping 127.0.0.1")
        after = await con.run_command("show version")
    assert ping.prompt.rstrip() == "router#", ping
    assert 4.0 <= ping.elapsed_s < 20.0, ping.elapsed_s
    assert ping_answered(ping.output, "127.0.0.1"), ping.output
    assert "packets transmitted" in ping.output, ping.output  # the summary ping prints on ^C
    assert "FRRouting 8.4" in after.output and after.error is None, after.output


async def test_a_real_pager_is_answered_and_the_output_is_whole(frr_router: FrrRouter) -> None:
    """vtysh pages through its pager once told ``terminal paginate`` (FRR 8.4 ignores
    ``terminal length``: it says so with a ``%`` line): each page is turned, the pager that waits
    at ``(END)`` is quit, and the whole output comes back without the pager's prompts."""
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        whole = await con.run_command("show interface")  # vtysh does not page by default
        unpaged = list(con.pager_keys)
        try:
            deprecated = await con.run_command("terminal length 5")
            paginate = await con.run_command("terminal paginate")
            paged = await con.run_command("show interface")
        finally:
            await con.run_command("no terminal paginate")  # the pager off again, as it was
        zero = await con.run_command("terminal length 0")  # a no-op here, and silent
        after = await con.run_command("show version")
        seen = con.transcript.text()
    assert deprecated.error is not None and "deprecated" in deprecated.output, deprecated.output
    assert paginate.error is None and zero.error is None, (paginate.output, zero.output)
    lines = [line.rstrip() for line in whole.output.splitlines() if line.strip()]
    assert len(lines) > 30, whole.output  # more than a screen
    assert [line.rstrip() for line in paged.output.splitlines() if line.strip()] == lines, (
        paged.output
    )
    # pages turned with a space, and the pager that waits at the end of the text quit with q
    assert unpaged == [] and con.pager_keys[0] == " " and con.pager_keys[-1] == "q", (
        con.pager_keys,
        seen[-3000:],
    )
    assert "(END)" not in paged.output and "More" not in paged.output, paged.output
    assert "FRRouting 8.4" in after.output and after.error is None, after.output


async def test_a_router_reloading_is_waited_for_through_its_boot_then_logged_in(
    frr_router: FrrRouter,
) -> None:
    """The router reloads (a reset from its own shell: the gate would never send one) and a
    session connects at once: it reads the kernel's boot lines, waits for the login, logs in
    to vtysh and runs its command."""
    await log_out(frr_router)
    root = DeviceCredentials(SHELL_USER, ROUTER_PASSWORD)
    async with DeviceConsole(frr_router.target, root, frr_router.options) as shell:
        synced = await shell.run_command("sync")
        # typed on the session as an operator would: the gate refuses this line
        shell._send("echo b > /proc/sysrq-trigger")
        await shell._writer.drain()
    assert synced.prompt.startswith("root@router"), synced
    started = time.monotonic()
    async with DeviceConsole(frr_router.target, frr_router.credentials, frr_router.options) as con:
        waited = time.monotonic() - started
        version = await con.run_command("show version")
        seen = con.transcript.text()
    _FACTS["a reload, reset to logged in"] = f"{waited:.0f} s"
    # the next session starts a vtysh of its own: one started as the login first shows may miss
    # a daemon that is still coming up, and vtysh drops that daemon's lines without a word
    await log_out(frr_router)
    assert "Linux version" in seen and "login:" in seen, seen[:2000]  # it saw the boot
    assert con.prompt is None  # closed
    assert version.prompt.rstrip() == "router#" and "FRRouting 8.4" in version.output
    assert waited < BOOT_TIMEOUT_S
