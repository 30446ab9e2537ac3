"""The console logins of a class's routers, for the service's task runs (``serve
--console-logins FILE``).

A task whose checks or faults read a router's CLI needs the router's console login; a
student's dock has the logins its user saved, but the trainer's service injects and checks
with the student's GNS3 login and no keyring of theirs. The trainer gives the service a file
of the lab's console logins instead, as a service is given its other secrets (a systemd
credential, a file only its user reads)::

    [[login]]
    applies_to = "template:FRR router"   # every node made from that template, or a node name
    username = "admin"
    password = "gns3"
    enable_secret = ""                    # optional

The file is refused when anyone but its owner may read it, when it is large, or when it has a
field it does not know; a refusal never shows a password. The passwords stay in memory: no
log line, response or error carries them.
"""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Awaitable, Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from gns3_copilot_desktop.core.devices import DeviceCredentials
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.gns3 import Gns3Client
from gns3_copilot_desktop.core.gns3.models import Node
from gns3_copilot_desktop.core.settings import ConsoleLogin

MAX_FILE_BYTES = 64 * 1024


class ConsoleLoginsError(CopilotError):
    """The console logins file cannot be used (the reason, never a password)."""


class _Login(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    applies_to: str = Field(min_length=1, max_length=200)
    username: str = Field(min_length=1, max_length=100)
    password: SecretStr = Field(max_length=200)
    enable_secret: SecretStr = Field(default=SecretStr(""), max_length=200)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    login: list[_Login] = Field(min_length=1, max_length=200)


class ServiceLogins:
    """The file's logins, matched to a node as the dock matches its saved logins (a node's
    name first, then its template's)."""

    def __init__(self, logins: list[_Login]) -> None:
        self._logins = logins

    def __repr__(self) -> str:
        return f"ServiceLogins({len(self._logins)} logins)"

    def for_client(
        self, client: Gns3Client
    ) -> Callable[[Node], Awaitable[DeviceCredentials | None]]:
        """Each node's login, template names read once with the caller's own GNS3 login (a
        student who may not list templates gets the logins named after nodes only)."""
        names: dict[str, str] | None = None
        matchers = [(ConsoleLogin(id="x", applies_to=g.applies_to), g) for g in self._logins]
        by_template = any(m.applies_to.lower().startswith("template:") for m, _ in matchers)

        async def template_of(node: Node) -> str | None:
            nonlocal names
            if not (node.template_id and by_template):
                return None
            if names is None:
                try:
                    names = {t.template_id: t.name for t in await client.list_templates()}
                except CopilotError:
                    names = {}
            return names.get(node.template_id)

        async def login(node: Node) -> DeviceCredentials | None:
            found = next((g for m, g in matchers if m.matches(node.name, None)), None)
            if found is None:
                template = await template_of(node)
                found = next((g for m, g in matchers if m.matches(node.name, template)), None)
            if found is None:
                return None
            return DeviceCredentials(
                found.username,
                found.password.get_secret_value(),
                found.enable_secret.get_secret_value() or None,
            )

        return login


def load_console_logins(path: Path) -> ServiceLogins:
    """The logins of the file at ``path``; `ConsoleLoginsError` saying why it cannot be used."""
    try:
        with path.open("rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConsoleLoginsError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise ConsoleLoginsError(
            f"{path}: others may read it (mode {stat.S_IMODE(mode):o}); it holds passwords: "
            f"chmod 600 {path}"
        )
    if len(data) > MAX_FILE_BYTES:
        raise ConsoleLoginsError(f"{path}: larger than {MAX_FILE_BYTES // 1024} KiB")
    try:
        raw = tomllib.loads(data.decode("utf-8"))
        parsed = _File.model_validate(raw)
    except UnicodeDecodeError:
        raise ConsoleLoginsError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConsoleLoginsError(f"{path}: not valid TOML ({exc})") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConsoleLoginsError(f"{path}: {where}: {first['msg']}") from None
    return ServiceLogins(list(parsed.login))
