"""Prompt, pager and screen-text recognition."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.devices.prompts import (
    DeviceKind,
    PromptMode,
    match_prompt,
    pager_key,
)
from gns3_copilot_desktop.core.devices.terminal import last_line, screen_text


@pytest.mark.parametrize(
    ("line", "kind", "mode", "host"),
    [
        ("PC1> ", DeviceKind.VPCS, PromptMode.USER, "PC1"),
        ("R1>", DeviceKind.IOS, PromptMode.USER, "R1"),
        ("R1#", DeviceKind.IOS, PromptMode.PRIVILEGED, "R1"),
        ("R1(config)#", DeviceKind.IOS, PromptMode.CONFIG, "R1"),
        ("core-sw1(config-if)#", DeviceKind.IOS, PromptMode.CONFIG, "core-sw1"),
        ("admin@vmx1> ", DeviceKind.JUNOS, PromptMode.USER, "vmx1"),
        ("user@debian:~$ ", DeviceKind.LINUX, PromptMode.USER, "debian"),
        ("root@host:/etc# ", DeviceKind.LINUX, PromptMode.PRIVILEGED, "host"),
        ("[user@alma ~]$ ", DeviceKind.LINUX, PromptMode.USER, "alma"),
        ("/ # ", DeviceKind.LINUX, PromptMode.PRIVILEGED, "/"),
        ("# ", DeviceKind.LINUX, PromptMode.PRIVILEGED, ""),
    ],
)
def test_prompts_are_recognised(line: str, kind: DeviceKind, mode: PromptMode, host: str) -> None:
    prompt = match_prompt(line)
    assert prompt is not None
    assert (prompt.kind, prompt.mode, prompt.hostname) == (kind, mode, host)


@pytest.mark.parametrize(
    "line", ["", "NAME        : PC1[1]", " no ip address", "interface Ethernet0/0", "1500"]
)
def test_output_lines_are_not_prompts(line: str) -> None:
    assert match_prompt(line) is None


def test_ios_config_context_and_kind_hints() -> None:
    prompt = match_prompt("R1(config-router)#", DeviceKind.IOS)
    assert prompt is not None and prompt.config_context == "config-router"
    # A VPCS node renamed like a router still reads as VPCS when the caller says so.
    vpcs = match_prompt("R1>", DeviceKind.VPCS)
    assert vpcs is not None and vpcs.kind is DeviceKind.VPCS
    assert match_prompt("user@debian:~$ ", DeviceKind.IOS) is None
    junos = match_prompt("admin@vmx1# ", DeviceKind.JUNOS)
    assert junos is not None and junos.mode is PromptMode.CONFIG


@pytest.mark.parametrize(
    "line", [" --More-- ", "--More--", "-- More --", "---(more 52%)---", "--More--(45%)"]
)
def test_pagers_are_recognised(line: str) -> None:
    assert pager_key(line) == " "


@pytest.mark.parametrize(
    ("line", "key"),
    [(":", " "), (" : ", " "), ("(END)", "q"), ("(END)e--", "q"), ("lines 1-5/30 (END)", "q")],
)
def test_less_turns_pages_with_a_space_and_is_left_with_q_at_the_end(line: str, key: str) -> None:
    # vtysh's pager with ``terminal length N``: it waits at "(END)" until told to quit
    assert pager_key(line) == key


@pytest.mark.parametrize(
    "line", ["R1#", "Password:", "a: b", "user@r1:~$ ", "x" * 70 + "(END)", "banner (END)"]
)
def test_prompts_and_long_lines_are_no_pager(line: str) -> None:
    assert pager_key(line) is None


def test_screen_text_replays_erase_sequences_and_line_ends() -> None:
    raw = "line 1\r\n --More-- " + "\b" * 10 + " " * 10 + "\b" * 10 + "line 2\r\r\nend"
    assert screen_text(raw) == "line 1\n" + "line 2" + " " * 4 + "\nend"
    coloured = "\x1b[?2004h\x1b[01;32muser@debian\x1b[00m:\x1b[01;34m~\x1b[00m$ "
    assert last_line("out\r\n" + coloured) == "user@debian:~$ "
    assert screen_text("progress 10%\rprogress 100%\r\n") == "progress 100%\n"


def test_a_double_echo_is_stripped_whole() -> None:
    from gns3_copilot_desktop.core.devices.recognize import output_of

    screen = "ping 192.0.2.1\nVPCS> ping 192.0.2.1\n192.0.2.1 icmp_seq=1 ttl=64\n\nVPCS> "
    assert output_of(screen, "ping 192.0.2.1") == "192.0.2.1 icmp_seq=1 ttl=64"
    # An output line that merely ends like the command later on is kept.
    screen = "show history\nip 1.2.3.4\nshow history\nPC1> "
    assert output_of(screen, "show history") == "ip 1.2.3.4\nshow history"
