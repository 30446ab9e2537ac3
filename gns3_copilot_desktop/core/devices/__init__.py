"""Device consoles: telnet sessions with the nodes of a lab, used by the agent's device tools.

- `console`: `DeviceConsole` (connect, log in, `run_commands`, `push_config`) over telnetlib3.
- `prompts`: prompt recognition for VPCS, IOS-style CLIs, Junos and Linux shells.
- `policy`: the built-in list of destructive commands that are refused before sending.
- `output`: head-and-tail truncation of long output.
- `batch`: `run_on_devices`, several devices at once, one failure never failing the rest.
- `targets`: `target_for_node`, a GNS3 node's telnet console as a `ConsoleTarget`.
- `terminal`, `transcript`: screen-text cleanup and the redacted debug transcript.
"""

from __future__ import annotations

from gns3_copilot_desktop.core.devices.batch import (
    DeviceJob,
    DeviceOutcome,
    run_on_devices,
    save_running_vpcs,
)
from gns3_copilot_desktop.core.devices.console import DeviceConsole
from gns3_copilot_desktop.core.devices.console_data import (
    CommandResult,
    ConfigResult,
    ConsoleOptions,
    ConsoleTarget,
    DeviceCredentials,
    DeviceTimeoutError,
    RejectedLine,
)
from gns3_copilot_desktop.core.devices.output import CutText, truncate_output
from gns3_copilot_desktop.core.devices.policy import (
    CommandRefusedError,
    RefusedCommand,
    check_command,
    check_commands,
)
from gns3_copilot_desktop.core.devices.prompts import DeviceKind, Prompt, PromptMode, match_prompt
from gns3_copilot_desktop.core.devices.targets import kind_for_node_type, target_for_node

__all__ = [
    "CommandRefusedError",
    "CommandResult",
    "ConfigResult",
    "ConsoleOptions",
    "ConsoleTarget",
    "CutText",
    "DeviceConsole",
    "DeviceCredentials",
    "DeviceJob",
    "DeviceKind",
    "DeviceOutcome",
    "DeviceTimeoutError",
    "Prompt",
    "PromptMode",
    "RefusedCommand",
    "RejectedLine",
    "check_command",
    "check_commands",
    "kind_for_node_type",
    "match_prompt",
    "run_on_devices",
    "save_running_vpcs",
    "target_for_node",
    "truncate_output",
]
