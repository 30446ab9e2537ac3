"""`SecretMask` on text: every printed form of a saved secret is masked, for every length, while
ordinary output around it is left as the device printed it."""

from __future__ import annotations

import base64
import time

import pytest

from gns3_copilot_desktop.core.devices.batch import (
    CONFIG_READ_MAX_CHARS,
    DeviceOutcome,
    scrub_outcome,
)
from gns3_copilot_desktop.core.devices.console_data import CommandResult
from gns3_copilot_desktop.core.devices.secret_mask import MASK, SecretMask, decode_type7
from tests.helpers.secret_forms import junos9, junos9_decode, type5, type7, type8, type9

LONG = "Hunt3r-2-lab!x"
SHORT = ["q", "qZ", "qZ7"]
ALL = [*SHORT, LONG]
OTHER_OUTPUT = (
    "Interface              IP-Address      OK? Method Status                Protocol\n"
    "Ethernet0/0            10.0.0.1        YES manual up                    up\n"
    "Ethernet0/1            unassigned      YES unset  administratively down down\n"
    "  5 packets input, 2024 bytes, 0 no buffer\n  qZ7 appears as a word, q and qZ too\n"
    "key 1\nlabel qZ\n"
)


def test_type7_decodes_the_public_example() -> None:
    # Cisco's documented example: "password 7 0822455D0A16" is "cisco".
    assert decode_type7("0822455D0A16") == b"cisco"
    assert decode_type7("0822455d0a16") == b"cisco"
    assert decode_type7("9922") is None and decode_type7("08zz") is None
    assert all(decode_type7(type7(s, offset)) == s.encode() for s in ALL for offset in (0, 9, 15))


def test_junos_helper_encoding_is_reversible() -> None:
    # the test double's $9$ is Junos's own encoding: it decodes back to the secret
    assert all(junos9_decode(junos9(s, seed)) == s for s in ALL for seed in range(5))


def _forms(secret: str) -> dict[str, tuple[str, str]]:
    """form -> (text as a device prints it, the part that gives the secret away)."""
    t7 = type7(secret, 11)
    b64 = base64.b64encode(f"{secret}\n".encode()).decode()
    return {
        "plain after password": (f"username admin password 0 {secret}", f"password 0 {secret}"),
        "login prompt echo": (f"Password: {secret}", f": {secret}"),
        "community": (f"snmp-server community {secret} RO", f"community {secret} RO"),
        "key-string": (f" key-string {secret}", f"key-string {secret}"),
        "type 7 username": (f"username admin privilege 15 password 7 {t7}", t7),
        "type 7 enable": (f"enable password 7 {type7(secret, 3)}", type7(secret, 3)),
        "type 7 ospf md5": (f" ip ospf message-digest-key 1 md5 7 {t7}", t7),
        "type 5": (f"enable secret 5 {type5(secret)}", type5(secret)),
        "type 8": (f"username bob secret 8 {type8(secret)}", type8(secret)),
        "type 9": (f"username bob secret 9 {type9(secret)}", type9(secret)),
        "junos $9$": (f'set system login user a authentication secret "{junos9(secret)}"', "$9$"),
        "shadow": (f"root:{type5(secret)}:19000:0:99999:7:::", "$1$"),
        "one per line": ("\n".join(f"password {secret}"), "\n".join(f"d {secret}")),
        "two per line": (
            "\n".join(f"secret={secret}"[i : i + 2] for i in range(0, len(secret) + 7, 2)),
            f"={secret}",
        ),
        "base64 of echo": (b64, b64),
        "hex of echo": (f"{secret}\n".encode().hex(), f"{secret}\n".encode().hex()),
    }


@pytest.mark.parametrize("secret", ALL, ids=lambda s: f"{len(s)}-chars")
@pytest.mark.parametrize("form", list(_forms("x")))
def test_each_form_is_masked_for_every_length(form: str, secret: str) -> None:
    text, giveaway = _forms(secret)[form]
    masked = SecretMask([secret]).mask(f"R1#\n{text}\nR1#")
    assert MASK in masked
    assert giveaway not in masked, masked
    if form.endswith("per line"):  # the lines holding the secret became one mask
        assert masked.splitlines()[-2] == MASK and secret[-1] not in masked.splitlines()[-3]


def test_a_long_secret_is_masked_anywhere_and_spread_out() -> None:
    mask = SecretMask([LONG])
    spread = " ".join(LONG) + "\n" + "\n".join(LONG[i : i + 5] for i in range(0, len(LONG), 5))
    masked = mask.mask(f"note {LONG}.\n{spread}\n{type7(LONG, 2)}\n{LONG.encode().hex()}")
    assert masked == f"note {MASK}.\n{MASK}\n{MASK}\n{MASK}\n{MASK}"
    assert base64.b64encode(f"ab{LONG}cd".encode()).decode() not in mask.mask(
        base64.b64encode(f"ab{LONG}cd".encode()).decode()
    )


def test_short_secrets_leave_ordinary_output_alone() -> None:
    # 1-3 characters are masked only where a secret is written; elsewhere they are words
    assert SecretMask(SHORT).mask(OTHER_OUTPUT) == OTHER_OUTPUT
    # a 4-digit number is not taken for the type 7 of a 1-character secret
    assert SecretMask(["q"]).mask(f"echo {type7('q', 7)} 2024") == f"echo {type7('q', 7)} 2024"
    assert SecretMask(["q"]).mask(f"password 7 {type7('q', 7)}") == f"password 7 {MASK}"


def test_type7_of_a_password_that_is_not_saved_is_kept() -> None:
    # type 7 is masked when it decodes to a saved secret (the device's other passwords are data)
    line = f"username guest password 7 {type7('guest-pw')}"
    assert SecretMask(["qZ7", LONG]).mask(line) == line


def test_every_hash_is_masked_even_without_saved_secrets() -> None:
    text = "\n".join(
        [
            f"enable secret 5 {type5('anything')}",
            f"username a secret 9 {type9('other')}",
            "username b secret 4 tnhtc92DXBhelxjYk8LWJrPV36S2i4ntXrpb4RFmfqY",
            f'secret "{junos9("other")}"; ## SECRET-DATA',
        ]
    )
    assert SecretMask().mask(text).splitlines() == [
        f"enable secret 5 {MASK}",
        f"username a secret 9 {MASK}",
        f"username b secret 4 {MASK}",
        f'secret "{MASK}"; ## SECRET-DATA',
    ]


def _cut_test_output(secret: str, pad: int) -> str:
    return "a\n" * pad + "\n".join(secret) + "\n" + "b\n" * 3 * pad


def test_output_is_masked_before_it_is_cut() -> None:
    # the cut would fall in the middle of a secret printed one character per line: masked whole
    # first, no character of it is left on either side of the cut
    secret = "Zq9#Wx7!Kd"
    pad = 200
    output = _cut_test_output(secret, pad)
    limit = 2 * (2 * pad + len(secret))  # the head's half ends inside the secret
    read = CommandResult("L1", "grep -o . notes", output, False, "$ ", 0.1)
    outcome = DeviceOutcome("L1", results=[read])
    [result] = scrub_outcome(outcome, SecretMask([secret]), max_output_chars=limit).results
    assert result.truncated and MASK in result.output
    assert not set(result.output.splitlines()) & set(secret)


def test_a_256_kb_running_configuration_is_masked_quickly() -> None:
    blocks = []
    index = 0
    while sum(map(len, blocks)) < CONFIG_READ_MAX_CHARS:
        blocks.append(
            f"interface GigabitEthernet0/{index}\n description uplink {index}\n"
            f" ip address 10.{index % 250}.{index // 250}.1 255.255.255.0\n"
            f" ip ospf message-digest-key 1 md5 7 {type7(f'ospf{index}', index % 16)}\n!\n"
            f"username u{index} privilege 15 password 7 {type7(f'pw{index}', 5)}\n!\n"
        )
        index += 1
    config = "".join(blocks) + f"enable password 7 {type7(LONG)}\n"
    mask = SecretMask([LONG, "qZ"])
    started = time.perf_counter()
    masked = mask.mask(config)
    elapsed = time.perf_counter() - started
    assert masked.endswith(f"enable password 7 {MASK}\n") and masked.count(MASK) == 1
    assert elapsed < 1.0, f"{elapsed * 1000:.0f} ms for {len(config)} characters"
