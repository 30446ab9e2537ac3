"""DeviceConsole against the loopback telnet lab (a test double for real device consoles)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceTimeoutError,
)
from gns3_copilot_desktop.core.devices.policy import CommandRefusedError
from gns3_copilot_desktop.core.devices.prompts import DeviceKind, PromptMode
from gns3_copilot_desktop.core.errors import DeviceError
from tests.helpers.telnet_lab import (
    IosDevice,
    LinuxDevice,
    RunningDevice,
    StalledDevice,
    TelnetLab,
    VpcsDevice,
)

pytestmark = pytest.mark.asyncio

IOS_CREDS = DeviceCredentials("admin", "lab-password", "lab-enable")
FAST = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=5)


def _console(
    running: RunningDevice,
    creds: DeviceCredentials | None = None,
    options: ConsoleOptions = FAST,
    kind: DeviceKind = DeviceKind.AUTO,
) -> DeviceConsole:
    target = ConsoleTarget(running.device.name, running.host, running.port, kind)
    return DeviceConsole(target, creds, options)


async def test_vpcs_prompt_and_show_ip(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(VpcsDevice())
    async with _console(running) as console:
        assert console.prompt is not None and console.prompt.text == "PC1> "
        assert console.kind is DeviceKind.VPCS
        [result] = await console.run_commands(["show ip"])
    device = running.device
    assert isinstance(device, VpcsDevice)
    # Output lines lose trailing blanks ("DNS         : " has one), nothing else changes.
    assert result.output == "\n".join(line.rstrip() for line in device.show_ip().split("\n"))
    assert result.prompt == "PC1> " and not result.truncated
    assert device.received == ["show ip"]  # the banner showed the prompt: no wake-up newline


async def test_vpcs_config_lines_run_as_commands(telnet_lab: TelnetLab) -> None:
    device = VpcsDevice()
    running = await telnet_lab.start(device)
    async with _console(running, kind=DeviceKind.VPCS) as console:
        config = await console.push_config(["ip 192.0.2.1/24", "bogus"])
        [show] = await console.run_commands(["show ip"])
    assert device.ip == "192.0.2.1/24"
    assert "IP/MASK     : 192.0.2.1/24" in show.output
    assert [r.line for r in config.rejected] == ["bogus"]
    assert config.rejected[0].message.startswith("Bad command")


async def test_ios_login_enable_and_paged_running_config(telnet_lab: TelnetLab) -> None:
    device = IosDevice()
    running = await telnet_lab.start(device)
    async with _console(running, IOS_CREDS) as console:
        assert console.prompt is not None and console.prompt.mode is PromptMode.USER
        [result] = await console.run_commands(["show running-config"])
        assert console.prompt is not None and console.prompt.text == "R1#"
    expected = device.running_config()
    assert expected.count("\n") > 40  # long enough for at least two pager stops
    assert device.keys.count(" ") >= 2
    assert result.output == expected  # every page, no pager text, no echo, no prompt
    assert "More" not in result.output and "\b" not in result.output


async def test_ios_config_push_reports_rejected_lines(telnet_lab: TelnetLab) -> None:
    device = IosDevice()
    running = await telnet_lab.start(device)
    lines = ["interface Ethernet0/1", " ip address 192.0.2.1 255.255.255.0", "no shutdown"]
    async with _console(running, IOS_CREDS) as console:
        config = await console.push_config([*lines, "frobnicate everything"])
        assert console.prompt is not None and console.prompt.text == "R1#"
    assert [r.line for r in config.rejected] == ["frobnicate everything"]
    assert config.rejected[0].message == "% Invalid input detected at '^' marker."
    assert device.received[-len(lines) - 3 :] == [
        "configure terminal",
        *lines,
        "frobnicate everything",
        "end",
    ]
    assert device.extra_config == [lines[0], f" {lines[1].strip()}", " no shutdown"]
    assert "R1(config-if)#" in config.output


async def test_ios_hostname_change_keeps_the_session_in_step(telnet_lab: TelnetLab) -> None:
    device = IosDevice(username=None, enable_secret=None)
    running = await telnet_lab.start(device)
    async with _console(running) as console:
        config = await console.push_config(["hostname EDGE1"])
        [version] = await console.run_commands(["show version"])
    assert device.received[0] == ""  # a silent console was woken with a newline
    assert config.ok and config.rejected == []
    assert version.prompt == "EDGE1#" and version.output.startswith("Cisco IOS Software")


async def test_ios_without_enable_secret_cannot_push_config(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(IosDevice())
    creds = DeviceCredentials("admin", "lab-password", None)
    async with _console(running, creds) as console:
        # run_commands stays in user mode when enable fails; the device's answer shows why.
        [result] = await console.run_commands(["show running-config"])
        assert "% Invalid input" in result.output
    with pytest.raises(DeviceError, match="enable"):
        async with _console(running, creds) as console:
            await console.push_config(["interface Ethernet0/1"])


async def test_wrong_password_is_a_clear_error(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(IosDevice())
    with pytest.raises(DeviceError, match="Login to R1 failed"):
        await _console(running, DeviceCredentials("admin", "wrong", None)).connect()
    with pytest.raises(DeviceError, match="asks for a username"):
        await _console(running).connect()


async def test_linux_login_and_commands(telnet_lab: TelnetLab) -> None:
    device = LinuxDevice()
    running = await telnet_lab.start(device)
    creds = DeviceCredentials("user", "lab-linux")
    async with _console(running, creds) as console:
        assert console.kind is DeviceKind.LINUX
        echo, seq, missing = await console.run_commands(["echo hello lab", "seq 5", "nmap"])
    assert echo.output == "hello lab"
    assert seq.output == "1\n2\n3\n4\n5"
    assert missing.output == "-bash: nmap: command not found"
    assert echo.prompt == "user@debian:~$ "


@pytest.mark.parametrize("late_echo", [False, True])
async def test_a_ping_without_a_count_is_stopped_and_the_next_command_runs(
    telnet_lab: TelnetLab, late_echo: bool
) -> None:
    # late_echo: "^C" lands after the summary, glued to the prompt ("^Cuser@debian:~$ ")
    device = LinuxDevice(late_ctrl_c_echo=late_echo)
    running = await telnet_lab.start(device)
    options = ConsoleOptions(command_timeout=5, ping_stop_s=0.7)
    async with _console(running, DeviceCredentials("user", "lab-linux"), options) as console:
        ping, echo = await console.run_commands(["ping 10.0.0.2", "echo after"])
    assert device.keys == ["^C"]  # nothing else was typed into the running ping
    assert 0.7 <= ping.elapsed_s < 5, ping.elapsed_s
    assert "10.0.0.2: icmp_seq=1" in ping.output and "packets transmitted" in ping.output
    assert ping.output.endswith("0% packet loss"), ping.output  # no "^C" and no prompt in it
    assert ping.prompt == "user@debian:~$ "
    assert echo.output == "after"
    assert "^C" in console.transcript.text()


async def test_a_console_that_boots_longer_than_the_login_wait_is_logged_in(
    telnet_lab: TelnetLab,
) -> None:
    """A node just started (a plan configures the routers it made): the boot runs past the login
    wait, then the login and the password each get theirs."""
    running = await telnet_lab.start(LinuxDevice(boot_s=2.0))
    options = ConsoleOptions(login_timeout=1.0, boot_timeout=10.0, command_timeout=5)
    async with _console(running, DeviceCredentials("user", "lab-linux"), options) as console:
        [echo] = await console.run_commands(["echo booted"])
    assert echo.output == "booted"


async def test_transcript_and_logs_never_contain_credentials(
    telnet_lab: TelnetLab, caplog: pytest.LogCaptureFixture
) -> None:
    running = await telnet_lab.start(IosDevice())
    caplog.set_level(logging.DEBUG, logger="gns3_copilot_desktop.core.devices")
    async with _console(running, IOS_CREDS) as console:
        await console.run_commands(["show version"])
        transcript = console.transcript.text()
    assert "show version" in transcript and "<redacted>" in transcript
    assert "show version" in caplog.text
    for secret in ("lab-password", "lab-enable"):
        assert secret not in transcript and secret not in caplog.text
    assert "lab-password" not in repr(IOS_CREDS)


async def test_command_timeout_names_device_command_and_received_text(
    telnet_lab: TelnetLab,
) -> None:
    running = await telnet_lab.start(VpcsDevice())
    options = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=0.5)
    console = _console(running, options=options)
    started = time.monotonic()
    with pytest.raises(DeviceTimeoutError) as info:
        await console.run_commands(["show ip", "hang"])
    assert time.monotonic() - started < 4
    error = info.value
    assert (error.device, error.command) == ("PC1", "hang")
    assert "PC1" in error.user_message and "'hang'" in error.user_message
    assert "hang" in error.received  # the echo is what arrived before the stall
    assert [r.command for r in error.completed] == ["show ip"]
    assert not console.connected
    # The next request opens a fresh session instead of reading the stalled one.
    [again] = await console.run_commands(["show ip"])
    assert again.output.startswith("NAME        : PC1[1]") and telnet_lab.connections_made == 2
    await console.close()


async def test_stop_during_endless_output_ends_the_command_at_once(telnet_lab: TelnetLab) -> None:
    """A Stop lands while the console's reads keep completing. On Python 3.11 a read under
    ``asyncio.wait_for`` lost a cancel that came as a read finished, and the command ran on to
    its timeout; each of these stops must end the command within a second."""
    running = await telnet_lab.start(VpcsDevice())
    options = ConsoleOptions(connect_timeout=5, login_timeout=5, command_timeout=8)
    for attempt in range(40):
        console = _console(running, options=options)
        await console.connect()
        task = asyncio.create_task(console.run_commands(["flood"]))
        await asyncio.sleep(0.02 + 0.0013 * attempt)  # lands at a different point of the reads
        assert not task.done()
        task.cancel()
        started = time.monotonic()
        with pytest.raises(asyncio.CancelledError):
            async with asyncio.timeout(3):
                await task
        assert time.monotonic() - started < 1.0, f"stop {attempt} took the command's timeout"
        await console.close()


async def test_a_console_that_never_answers_times_out_on_connect(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(StalledDevice())
    options = ConsoleOptions(connect_timeout=2, login_timeout=0.5, command_timeout=1)
    with pytest.raises(DeviceTimeoutError, match="stalled: no prompt"):
        await _console(running, options=options).connect()


async def test_unreachable_console_is_a_device_error(telnet_lab: TelnetLab) -> None:
    port = await telnet_lab.unused_port()
    target = ConsoleTarget("R9", "127.0.0.1", port)
    with pytest.raises(DeviceError, match=f"Cannot reach the console of R9 at 127.0.0.1:{port}"):
        await DeviceConsole(target, options=FAST).connect()


async def test_refused_commands_never_reach_the_device(telnet_lab: TelnetLab) -> None:
    device = IosDevice()
    running = await telnet_lab.start(device)
    options = ConsoleOptions(extra_refused_patterns=("^debug all",))
    async with _console(running, IOS_CREDS, options) as console:
        received_before = list(device.received)
        with pytest.raises(CommandRefusedError) as info:
            await console.run_commands(["show version", "wr er", "debug all"])
        with pytest.raises(CommandRefusedError):
            await console.push_config(["interface Ethernet0/1", "do reload"])
        assert device.received == received_before  # not even the harmless commands went out
        await console.run_commands(["show version"])
    assert [r.command for r in info.value.refused] == ["wr er", "debug all"]
    assert device.received[-1] == "show version"
    assert "wr er" not in device.received and "debug all" not in device.received


async def test_long_output_is_cut_with_head_and_tail(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(LinuxDevice())
    options = ConsoleOptions(max_output_chars=200, command_timeout=5)
    async with _console(running, DeviceCredentials("user", "lab-linux"), options) as console:
        [result] = await console.run_commands(["seq 2000"])
    lines = result.output.split("\n")
    assert result.truncated
    assert lines[0] == "1" and lines[-1] == "2000"
    assert any(line.startswith("... [") and "lines /" in line for line in lines)
    assert len(result.output) < 300


async def test_confirmation_questions_are_answered(telnet_lab: TelnetLab) -> None:
    device = IosDevice(username=None, enable_secret=None)
    running = await telnet_lab.start(device)
    async with _console(running) as console:
        copy, clear = await console.run_commands(
            ["copy running-config startup-config", "clear counters"]
        )
    assert device.saved
    assert copy.output.startswith("Destination filename [startup-config]?")
    assert copy.output.endswith("[OK]")
    assert clear.output.startswith('Clear "show interface" counters on all interfaces [confirm]')
    assert device.received[-4:] == [copy.command, "", clear.command, ""]


async def test_a_console_without_echo_still_returns_output(telnet_lab: TelnetLab) -> None:
    device = VpcsDevice(echo_commands=False)
    running = await telnet_lab.start(device)
    options = ConsoleOptions(command_timeout=5, echo_grace=0.3)
    async with _console(running, options=options) as console:
        [result] = await console.run_commands(["show ip"])
    assert result.output.startswith("NAME        : PC1[1]")
    assert result.output.endswith("MTU         : 1500")


async def test_log_lines_are_not_rejections(telnet_lab: TelnetLab) -> None:
    running = await telnet_lab.start(IosDevice())
    async with _console(running, IOS_CREDS) as console:
        config = await console.push_config(["interface Ethernet0/1", "no shutdown"])
    assert config.ok and "%LINK-3-UPDOWN" in config.output
    assert "R1(config)# interface Ethernet0/1" in config.output  # prompt shown before each line


async def test_kind_specific_refusals_apply_once_the_console_is_known(
    telnet_lab: TelnetLab,
) -> None:
    device = VpcsDevice()
    running = await telnet_lab.start(device)
    async with _console(running) as console:
        with pytest.raises(CommandRefusedError, match="quit ends the VPCS process"):
            await console.run_commands(["quit"])
    assert "quit" not in device.received


async def test_every_echo_before_the_output_goes_even_with_blank_lines_between() -> None:
    """Seen on the real VPCS: the typed echo, a blank line, then the redrawn line."""
    from gns3_copilot_desktop.core.devices.recognize import output_of

    screen = "ping 192.0.2.1 -c 2\n\nPC2> ping 192.0.2.1 -c 2\n192.0.2.1 icmp_seq=1\n\nPC2> "
    assert output_of(screen, "ping 192.0.2.1 -c 2") == "192.0.2.1 icmp_seq=1"
    # output that merely mentions the command later is kept
    later = "show ip\nNAME : PC1\nlast: show ip\nPC1> "
    assert output_of(later, "show ip") == "NAME : PC1\nlast: show ip"
