"""Running-configuration reads around a push: the preview, the diff, and no secret in either."""

from __future__ import annotations

from gns3_copilot_desktop.core.agent.tools.device_results import config_changes, config_preview
from gns3_copilot_desktop.core.devices.batch import DeviceOutcome, scrub_outcome
from gns3_copilot_desktop.core.devices.console_data import CommandResult, DeviceCredentials

RUNNING = (
    "hostname R1\n!\ninterface Gi0/0\n ip address 10.0.0.1 255.0.0.0\n!\nenable secret s3cr3t-pw"
)


def _read(output: str) -> CommandResult:
    return CommandResult("R1", "show running-config", output, False, "R1#", 0.1)


def test_the_preview_marks_lines_not_in_the_running_configuration() -> None:
    marked, new, there = config_preview(
        ["interface Gi0/0", "  ip address 10.0.0.1   255.0.0.0", " no shutdown"], RUNNING
    )
    assert (new, there) == (1, 2)  # spacing differences do not make a line new
    assert marked.splitlines() == [
        "  interface Gi0/0",
        "    ip address 10.0.0.1   255.0.0.0",
        "+  no shutdown",
    ]


def test_the_diff_after_a_push_names_what_changed() -> None:
    after = RUNNING.replace(
        " ip address 10.0.0.1 255.0.0.0", " ip address 10.0.0.1 255.0.0.0\n no shutdown"
    )
    outcome = DeviceOutcome("R1", config_before=_read(RUNNING), config_after=_read(after))
    text = config_changes(outcome) or ""
    assert text.startswith("Running configuration changes (show running-config):")
    assert "+ no shutdown" in text and "-" not in text.split("@@")[-1].replace("---", "")
    same = DeviceOutcome("R1", config_before=_read(RUNNING), config_after=_read(RUNNING))
    assert config_changes(same) == "Running configuration (show running-config): unchanged."
    assert config_changes(DeviceOutcome("R1")) is None


def test_a_secret_the_device_prints_in_its_configuration_is_scrubbed() -> None:
    outcome = DeviceOutcome("R1", config_before=_read(RUNNING), config_after=_read(RUNNING))
    clean = scrub_outcome(outcome, DeviceCredentials("admin", "pw-login", "s3cr3t-pw"))
    assert clean.config_before is not None and clean.config_after is not None
    for read in (clean.config_before, clean.config_after):
        assert "s3cr3t-pw" not in read.output and "enable secret ********" in read.output
