"""What the console reads on a screen: an error that quotes the command, a doubled Enter's second
prompt, a boot in progress (the shapes vtysh and a booting Debian router print)."""

from __future__ import annotations


def test_an_error_that_quotes_the_command_is_output_not_an_echo() -> None:
    """vtysh answers an unknown command with a line ending in the command itself."""
    from gns3_copilot_desktop.core.devices.console_data import CommandResult
    from gns3_copilot_desktop.core.devices.recognize import output_of

    screen = "show frobnicate\n% Unknown command: show frobnicate\nrouter# "
    output = output_of(screen, "show frobnicate")
    assert output == "% Unknown command: show frobnicate"
    result = CommandResult("R1", "show frobnicate", output, False, "router# ", 0.1)
    assert result.error == "% Unknown command: show frobnicate"
    # a redrawn prompt with the command is still an echo
    redrawn = "show ip route\nrouter# show ip route\nC>* 10.0.0.0/24\nrouter# "
    assert output_of(redrawn, "show ip route") == "C>* 10.0.0.0/24"


def test_a_second_prompt_from_a_doubled_enter_is_not_output() -> None:
    from gns3_copilot_desktop.core.devices.prompts import match_prompt
    from gns3_copilot_desktop.core.devices.recognize import without_bare_prompts

    prompt = match_prompt("router# ")
    assert prompt is not None
    assert without_bare_prompts("FRRouting 8.4.4\nrouter#\n", prompt) == "FRRouting 8.4.4"


def test_boot_output_is_recognised() -> None:
    from gns3_copilot_desktop.core.devices.prompts import BOOT_OUTPUT_RE

    assert BOOT_OUTPUT_RE.search("[    0.000000] Linux version 6.1.0-57-amd64 (debian)")
    assert BOOT_OUTPUT_RE.search("SeaBIOS (version 1.16.2)\r\nBooting from ROM...")
    assert not BOOT_OUTPUT_RE.search("router# show version\nFRRouting 8.4.4 (router)")
