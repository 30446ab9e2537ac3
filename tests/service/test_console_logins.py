"""The class's router logins given to the service (``serve --console-logins FILE``): refused
when others may read the file or it says what it should not, never showing a password, and
matched to a node as the dock matches its saved logins (its name, then its template)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from gns3_copilot_desktop.core.gns3.models import Node, Template
from gns3_copilot_desktop.service import cli
from gns3_copilot_desktop.service.console_logins import ConsoleLoginsError, load_console_logins

SECRET = "s3cret-Pa55"
GOOD = f"""\
[[login]]
applies_to = "template:FRR router"
username = "admin"
password = "{SECRET}"

[[login]]
applies_to = "R9"
username = "root"
password = "other"
enable_secret = "en"
"""


def _file(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "logins.toml"
    path.write_text(text, encoding="utf-8")
    os.chmod(path, mode)
    return path


class _Client:
    """What the logins ask of GNS3: the templates (counted)."""

    def __init__(self) -> None:
        self.asked = 0

    async def list_templates(self) -> list[Template]:
        self.asked += 1
        return [Template(template_id="t-frr", name="FRR router")]


def _node(name: str, template_id: str | None) -> Node:
    return Node.model_validate(
        {"node_id": name, "name": name, "node_type": "qemu", "template_id": template_id}
    )


@pytest.mark.asyncio
async def test_a_node_gets_its_own_login_else_its_templates(tmp_path: Path) -> None:
    logins = load_console_logins(_file(tmp_path, GOOD))
    assert SECRET not in repr(logins)
    client: Any = _Client()
    login = logins.for_client(client)
    by_template = await login(_node("R1", "t-frr"))
    assert by_template is not None and by_template.username == "admin"
    assert by_template.password == SECRET and by_template.enable_secret is None
    by_name = await login(_node("R9", "t-frr"))
    assert by_name is not None and (by_name.username, by_name.enable_secret) == ("root", "en")
    assert await login(_node("PC1", None)) is None
    assert await login(_node("R2", "t-other")) is None
    assert client.asked == 1, "the templates are read once per client"


@pytest.mark.parametrize(
    ("text", "mode", "words"),
    [
        (GOOD, 0o644, "chmod 600"),
        (GOOD, 0o640, "others may read it"),
        (GOOD.replace('username = "admin"', 'username = "admin"\nshell = "bash"'), 0o600, "shell"),
        (GOOD.replace(f'password = "{SECRET}"', "password = 1234"), 0o600, "password"),
        (GOOD.replace('username = "admin"\n', ""), 0o600, "username"),
        (f'[[login]]\napplies_to = "x"\npassword = "{SECRET}', 0o600, "not valid TOML"),
        ("", 0o600, "login"),
        ("x" * (70 * 1024), 0o600, "larger than"),
    ],
)
def test_a_file_that_cannot_be_used_says_why_and_never_shows_a_password(
    tmp_path: Path, text: str, mode: int, words: str
) -> None:
    with pytest.raises(ConsoleLoginsError) as caught:
        load_console_logins(_file(tmp_path, text, mode))
    assert words in caught.value.user_message, caught.value.user_message
    assert SECRET not in caught.value.user_message and "1234" not in caught.value.user_message


def test_serve_refuses_a_logins_file_others_can_read_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, GOOD, 0o644)
    assert cli.run(["--console-logins", str(path), "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err
    assert "chmod 600" in err and SECRET not in err
    assert not (tmp_path / "d").exists()
