"""The FRR router's .gns3a file (what a user imports) and the template the tests register on
their GNS3 server agree: a test on the router is a test of what users get."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.helpers.frr_router import Acceleration, template_body
from tests.helpers.vpcs_lab import REPO_ROOT

SHARED = (
    "adapter_type", "adapters", "ram", "cpus", "hda_disk_interface", "console_type",
    "kernel_command_line", "on_close",
)  # fmt: skip


def test_the_test_template_is_the_appliance_users_import(tmp_path: Path) -> None:
    for name in ("frr-router.qcow2", "vmlinuz", "initrd.img"):
        (tmp_path / name).write_bytes(name.encode())
    printed = subprocess.run(
        ["bash", str(REPO_ROOT / "packaging" / "router" / "appliance.sh"), str(tmp_path), "6.1"],
        capture_output=True, text=True, check=True, timeout=30,
    ).stdout  # fmt: skip
    appliance = json.loads(printed)
    template = template_body(tmp_path, Acceleration("tcg"))
    assert template["name"] == appliance["name"] and template["category"] == appliance["category"]
    assert template["port_name_format"] == appliance["port_name_format"] == "eth{0}"
    assert {k: template[k] for k in SHARED} == {k: appliance["qemu"][k] for k in SHARED}
    [version] = appliance["versions"]
    for key, filename in version["images"].items():
        assert template[key] == filename
