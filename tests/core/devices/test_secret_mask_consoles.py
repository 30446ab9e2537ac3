"""Every printed form of a saved secret is masked in what `run_on_devices` returns, on the
modeled IOS console (the telnet lab's router double: a configuration that lists the login's
password as type 7, hashes, a community) and on a real bash behind a loopback telnet server
(files holding the secret, printed whole, one or two characters per line, spaced, in hex, in
base64, as a type 7 string, as hashes, as Junos ``$9$``)."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from gns3_copilot_desktop.core.devices.batch import DeviceJob, run_on_devices
from gns3_copilot_desktop.core.devices.console_data import (
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
)
from gns3_copilot_desktop.core.devices.prompts import DeviceKind
from gns3_copilot_desktop.core.devices.secret_mask import MASK
from tests.helpers.bash_console import PROMPT, BashConsole
from tests.helpers.secret_forms import junos9, type5, type7, type8, type9
from tests.helpers.telnet_lab import ModeledIosDevice, TelnetLab

pytestmark = pytest.mark.asyncio

LENGTHS = ["q", "qZ", "qZ7", "Hunt3r-2-lab!x"]
ENABLE = "en-Secret-99"
OPTIONS = ConsoleOptions(connect_timeout=10, login_timeout=10, command_timeout=10)


def _ios_forms(secret: str) -> dict[str, tuple[str, str]]:
    """form -> (configuration line, the value in it that gives the secret away)."""
    t7 = type7(secret, 9)
    return {
        "plain": (f"username admin privilege 15 password 0 {secret}", secret),
        "type 7 username": (f"username admin privilege 15 password 7 {t7}", t7),
        "type 7 enable": (f"enable password 7 {type7(secret, 2)}", type7(secret, 2)),
        "type 5": (f"enable secret 5 {type5(secret)}", type5(secret)),
        "type 8": (f"username ops secret 8 {type8(secret)}", type8(secret)),
        "type 9": (f"username ops secret 9 {type9(secret)}", type9(secret)),
        "community": (f"snmp-server community {secret} RO", secret),
    }


@pytest.mark.parametrize("secret", LENGTHS, ids=lambda s: f"{len(s)}-chars")
@pytest.mark.parametrize("form", list(_ios_forms("x")))
async def test_ios_running_config_masks_each_form(
    form: str, secret: str, telnet_lab: TelnetLab
) -> None:
    line, value = _ios_forms(secret)[form]
    device = ModeledIosDevice(
        name="R1", password=secret, enable_secret=ENABLE, interfaces=1, globals_=[line]
    )
    running = await telnet_lab.start(device)
    target = ConsoleTarget("R1", running.host, running.port, DeviceKind.IOS)
    creds = DeviceCredentials("admin", secret, ENABLE)
    [outcome] = await run_on_devices(
        [DeviceJob(target, ("show running-config",), credentials=creds)], OPTIONS
    )
    assert outcome.ok, outcome.error
    assert device.received[:2] == ["admin", secret]  # the saved login logged in
    output = outcome.results[0].output
    assert "hostname R1" in output and "interface Ethernet0/0" in output
    at = line.rindex(value)
    assert line not in output
    assert line[:at] + MASK + line[at + len(value) :] in output.splitlines()


async def test_ios_masks_another_saved_login_s_password(telnet_lab: TelnetLab) -> None:
    # a router's configuration holds the password of another saved login (a neighbour's)
    other = "R2-console-pw"
    line = f"username r2 password 7 {type7(other, 4)}"
    device = ModeledIosDevice(name="R1", enable_secret=ENABLE, interfaces=1, globals_=[line])
    running = await telnet_lab.start(device)
    target = ConsoleTarget("R1", running.host, running.port, DeviceKind.IOS)
    job = DeviceJob(
        target,
        ("show running-config",),
        credentials=DeviceCredentials("admin", device.password, ENABLE),
        mask_secrets=(other,),
    )
    [outcome] = await run_on_devices([job], OPTIONS)
    assert f"username r2 password 7 {MASK}" in outcome.results[0].output
    [unmasked] = await run_on_devices([DeviceJob(target, ("show running-config",),
        credentials=DeviceCredentials("admin", device.password, ENABLE))], OPTIONS)  # fmt: skip
    assert line in unmasked.results[0].output  # the form is real: unmasked without that login


@pytest_asyncio.fixture
async def bash(tmp_path: Path) -> AsyncIterator[BashConsole]:
    server = BashConsole(tmp_path)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


def _bash_forms(secret: str) -> dict[str, tuple[str, str, str]]:
    """form -> (file content, command, text that gives the secret away)."""
    line = f"password {secret}"
    b64 = base64.b64encode(f"{secret}\n".encode()).decode()
    return {
        "cat": (f"{line}\n", "cat notes", line),
        "echo type 7": ("", f'echo "password 7 {type7(secret, 5)}"', type7(secret, 5)),
        "grep -o .": (f"{line}\n", "grep -o . notes", "\n".join(f"d {secret}")),
        "fold -w2": (f"secret={secret}\n", "fold -w2 notes", secret[-1] + "\n"),
        "xxd -p": (f"{secret}\n", "xxd -p notes", f"{secret}\n".encode().hex()),
        "base64": (f"{secret}\n", "base64 notes", b64),
        "shadow": (f"root:{type5(secret)}:19000:0:99999:7:::\n", "cat notes", type5(secret)),
        "type 8 and 9": (
            f"a {type8(secret)}\nb {type9(secret)}\n",
            "cat notes",
            type9(secret)[-20:],
        ),
        "junos $9$": (f'secret "{junos9(secret)}";\n', "cat notes", junos9(secret)),
    }


async def _run_bash(bash: BashConsole, secret: str, content: str, command: str) -> str:
    (bash.workdir / "notes").write_text(content)
    target = ConsoleTarget("L1", bash.host, bash.port, DeviceKind.LINUX)
    creds = DeviceCredentials(None, secret, None)
    [outcome] = await run_on_devices([DeviceJob(target, (command,), credentials=creds)], OPTIONS)
    assert outcome.ok, outcome.error
    # a freshly started bash answers the wake-up newline late: its prompt is not output
    lines = outcome.results[0].output.splitlines()
    return "\n".join(line for line in lines if line.strip() != PROMPT.strip())


@pytest.mark.parametrize("secret", LENGTHS, ids=lambda s: f"{len(s)}-chars")
@pytest.mark.parametrize("form", list(_bash_forms("x")))
async def test_real_bash_output_masks_each_form(form: str, secret: str, bash: BashConsole) -> None:
    content, command, giveaway = _bash_forms(secret)[form]
    output = await _run_bash(bash, secret, content, command)
    assert MASK in output, output
    assert giveaway not in output, output
    if form == "fold -w2":  # the lines holding the secret became one mask
        assert output.splitlines()[-1] == MASK


@pytest.mark.parametrize("command", ['echo "{t7}"', "grep -o . notes", "sed 's/./& /g' notes"])
async def test_real_bash_masks_a_long_secret_with_no_keyword_around_it(
    command: str, bash: BashConsole
) -> None:
    secret = "Hunt3r-2-lab!x"
    output = await _run_bash(bash, secret, f"{secret}\n", command.format(t7=type7(secret, 13)))
    assert output.strip() == MASK, output


async def test_real_bash_shows_what_it_printed_when_no_secret_is_in_it(bash: BashConsole) -> None:
    # the mask does not eat ordinary output: short secrets, short lines, numbers
    output = await _run_bash(bash, "qZ", "", "seq 1 12; echo label qZ; echo 0717 2024")
    assert output.splitlines() == [*map(str, range(1, 13)), "label qZ", "0717 2024"]
