"""A trainer's task file: the ticket a student reads, the lab, the faults to inject and the
checks that prove the lab works, in TOML.

The file is the trainer's words, read on a student's machine or a class service, so it is parsed
strictly: a size limit before anything is read, TOML only (no tags, anchors or references to
expand), typed models that refuse an unknown field, and every error names the line it is about.
What reaches a device is gated as any change is: a check's command must be a read the command
gate classifies as such, and an inject or undo line must pass the gate's refusal list.

Example::

    format = 1
    title = "The lost gateway"
    ticket = "PC1 cannot reach the server since this morning."
    level = "beginner"
    time_limit_min = 20

    [lab]
    project = "branch.gns3project"

    [[faults]]
    device = "PC1"
    inject = ["ip 10.1.1.10/24 10.1.1.254"]
    undo = ["ip 10.1.1.10/24 10.1.1.1"]

    [[checks]]
    title = "PC1 reaches the server"
    device = "PC1"
    command = "ping 10.2.2.2 -c 2"
    pass = { ping_max_loss = 50 }
    points = 60
"""

from __future__ import annotations

import ipaddress
import re
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from gns3_copilot_desktop.core.devices.command_risk import is_read_only_command
from gns3_copilot_desktop.core.devices.policy import check_command
from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.practice.catalog import Difficulty, load_catalog

MAX_TASK_BYTES = 256 * 1024
"""A task file is a page of text; anything larger is refused before it is read."""
MAX_TEXT = 2000
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
"""A device name as GNS3 shows it on the canvas (no spaces, no markup)."""


class TaskFileError(CopilotError):
    """A task file that cannot be used, with the line it is about."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True)


class PassCondition(_Strict):
    """When a check's output means the check passes: exactly one of these.

    ``contains`` / ``not_contains``: a piece of text (case kept); ``regex``: a Python regular
    expression searched in the output; ``ping_max_loss``: the command is a ping and at most this
    percentage of its echoes went unanswered (VPCS, Linux and IOS output are read); ``route``,
    ``ospf_full``, ``bgp_established``, ``interface_up``: the routing and interface state as
    the router prints it (`core.devices.routing`: FRR, IOS and Linux shapes)."""

    contains: str | None = Field(default=None, min_length=1, max_length=500)
    not_contains: str | None = Field(default=None, min_length=1, max_length=500)
    regex: str | None = Field(default=None, min_length=1, max_length=300)
    ping_max_loss: int | None = Field(default=None, ge=0, le=100)
    route: str | None = Field(default=None, max_length=50)
    """A prefix (``10.0.2.0/24``) the output of ``show ip route`` (or ``ip route``) has as a
    route, exactly that length."""
    ospf_full: str | None = Field(default=None, max_length=50)
    """An OSPF neighbour's router id Full in ``show ip ospf neighbor`` (``any``: one is)."""
    bgp_established: str | None = Field(default=None, max_length=50)
    """A BGP neighbour's address whose session ``show ip bgp summary`` shows Established."""
    interface_up: str | None = Field(
        default=None, pattern=r"^[A-Za-z][A-Za-z0-9/._:-]{0,40}$", max_length=41
    )
    """An interface up and its line up (``show ip interface brief`` on IOS, ``show interface
    brief`` on FRR, ``ip -br link`` on Linux, or one interface's detail)."""

    @field_validator("route")
    @classmethod
    def _a_prefix(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                ipaddress.ip_network(value, strict=False)
            except ValueError:
                raise ValueError(f"{value!r} is not a prefix such as 10.0.2.0/24") from None
        return value

    @field_validator("ospf_full", "bgp_established")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        if value is not None and value != "any":
            try:
                ipaddress.ip_address(value)
            except ValueError:
                raise ValueError(f"{value!r} is not an address such as 10.0.0.2") from None
        return value

    @field_validator("regex")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"not a regular expression: {exc}") from None
        return value

    @model_validator(mode="after")
    def _exactly_one(self) -> PassCondition:
        given = [
            self.contains,
            self.not_contains,
            self.regex,
            self.ping_max_loss,
            self.route,
            self.ospf_full,
            self.bgp_established,
            self.interface_up,
        ]
        if sum(v is not None for v in given) != 1:
            raise ValueError(
                "give exactly one of contains, not_contains, regex, ping_max_loss, route, "
                "ospf_full, bgp_established or interface_up"
            )
        return self

    def describe(self) -> str:
        """The condition in words, for the trainer."""
        if self.contains is not None:
            return f"the output contains {self.contains!r}"
        if self.not_contains is not None:
            return f"the output does not contain {self.not_contains!r}"
        if self.regex is not None:
            return f"the output matches /{self.regex}/"
        if self.route is not None:
            return f"the route {self.route} is present"
        if self.ospf_full is not None:
            return f"the OSPF neighbour {self.ospf_full} is Full"
        if self.bgp_established is not None:
            return f"the BGP session with {self.bgp_established} is Established"
        if self.interface_up is not None:
            return f"the interface {self.interface_up} is up"
        return f"at most {self.ping_max_loss}% of the pings are lost"


class TaskCheck(_Strict):
    """One thing that is true when the lab works, read from one device."""

    title: str = Field(min_length=1, max_length=200)
    device: str = Field(pattern=NAME_PATTERN)
    command: str = Field(min_length=1, max_length=500)
    passes: PassCondition = Field(alias="pass")
    wait_s: float = Field(default=0, ge=0, le=60)
    """How long to wait before asking again when the check fails (routing converges)."""
    retries: int = Field(default=0, ge=0, le=10)
    on_pass: str = Field(default="", max_length=MAX_TEXT)
    on_fail: str = Field(default="", max_length=MAX_TEXT)
    points: int = Field(default=10, ge=0, le=1000)

    @field_validator("command")
    @classmethod
    def _a_read(cls, value: str) -> str:
        refused = check_command(value)
        if refused is not None:
            raise ValueError(f"the command gate refuses {value!r}: {refused.reason}")
        if not is_read_only_command(value):
            raise ValueError(
                f"{value!r} is not a read (show, ping, traceroute, display...): a check "
                "reads the lab and never changes it"
            )
        return value


class TaskFault(_Strict):
    """A fault to inject: a catalog fault on a device (its placeholders filled from
    ``params``), a catalog link fault on the one link between ``device`` and ``params.peer``,
    or the trainer's own lines with the lines that undo them."""

    device: str = Field(pattern=NAME_PATTERN)
    catalog: str | None = Field(default=None, pattern=r"^[a-z0-9][a-z0-9-]{2,60}$")
    params: dict[str, str] = Field(default_factory=dict, max_length=20)
    inject: list[str] = Field(default_factory=list, max_length=50)
    undo: list[str] = Field(default_factory=list, max_length=50)

    @field_validator("inject", "undo")
    @classmethod
    def _gated(cls, lines: list[str]) -> list[str]:
        for line in lines:
            if len(line) > 500:
                raise ValueError("a line is longer than 500 characters")
            refused = check_command(line)
            if refused is not None:
                raise ValueError(f"the command gate refuses {line!r}: {refused.reason}")
        return lines

    @model_validator(mode="after")
    def _one_kind(self) -> TaskFault:
        if self.catalog is not None:
            if self.inject or self.undo:
                raise ValueError("a catalog fault takes its steps from the catalog: no inject/undo")
            known = {f.id: f for f in load_catalog().faults}
            if self.catalog not in known:
                raise ValueError(f"no fault {self.catalog!r} in the app's catalog")
            if known[self.catalog].applies_to == ["link"]:
                peer = self.params.get("peer", "")
                if not re.fullmatch(NAME_PATTERN, peer) or peer == self.device:
                    raise ValueError(
                        f"{self.catalog!r} changes a link: name the device at its other end "
                        'in params, as peer = "SW1"'
                    )
        elif not (self.inject and self.undo):
            raise ValueError("a fault of your own needs both 'inject' and 'undo' lines")
        elif self.params:
            raise ValueError("'params' fill a catalog fault's placeholders only")
        return self


class TaskLab(_Strict):
    """Where the lab comes from: a GNS3 portable project beside the task file, or a plan_lab
    spec (JSON) beside it. A plain relative name: never a path out of the task's folder."""

    project: str | None = None
    plan: str | None = None

    @field_validator("project", "plan")
    @classmethod
    def _plain_name(cls, value: str | None) -> str | None:
        if value is None:
            return None
        path = PurePosixPath(value)
        if (
            not value
            or "\\" in value
            or path.is_absolute()
            or any(part in ("..", "") for part in value.split("/"))
            or len(value) > 200
        ):
            raise ValueError(f"{value!r} must be a file name beside the task file")
        return value

    @model_validator(mode="after")
    def _one(self) -> TaskLab:
        if (self.project is None) == (self.plan is None):
            raise ValueError("give exactly one of 'project' or 'plan'")
        return self


class Task(_Strict):
    """A whole task as the trainer wrote it."""

    format: Literal[1]
    title: str = Field(min_length=3, max_length=200)
    ticket: str = Field(min_length=10, max_length=MAX_TEXT)
    level: Difficulty
    time_limit_min: int = Field(ge=1, le=600)
    points: int | None = Field(default=None, ge=1, le=10_000)
    """The task's total; when given it must equal the sum of its checks' points."""
    hints: list[str] = Field(default_factory=list, max_length=5)
    lab: TaskLab
    faults: list[TaskFault] = Field(min_length=1, max_length=20)
    checks: list[TaskCheck] = Field(min_length=1, max_length=50)

    @field_validator("hints")
    @classmethod
    def _short_hints(cls, hints: list[str]) -> list[str]:
        if any(not h.strip() or len(h) > MAX_TEXT for h in hints):
            raise ValueError(f"a hint is empty or longer than {MAX_TEXT} characters")
        return hints

    @model_validator(mode="after")
    def _total(self) -> Task:
        total = sum(c.points for c in self.checks)
        if self.points is not None and self.points != total:
            raise ValueError(f"points is {self.points} but the checks add up to {total}")
        if total == 0:
            raise ValueError("the checks are worth no points")
        return self

    @property
    def total_points(self) -> int:
        """What a student earns when every check passes."""
        return sum(c.points for c in self.checks)


def parse_task(text: str, name: str = "task.toml") -> Task:
    """The task in ``text``, or `TaskFileError` naming the line of the first problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_TASK_BYTES:
        raise TaskFileError(f"{name}: larger than {MAX_TASK_BYTES // 1024} KiB; not a task file")
    if _looks_like_yaml(text):
        raise TaskFileError(f"{name}, line 1: task files are TOML, not YAML")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"at line (\d+)", str(exc))
        where = f", line {found.group(1)}" if found else ""
        raise TaskFileError(f"{name}{where}: not valid TOML ({_first_clause(str(exc))})") from None
    try:
        return Task.model_validate(raw)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = tuple(error["loc"])
        line = locate(text, loc)
        field = ".".join(str(p) for p in loc) or "the file"
        message = str(error["msg"]).removeprefix("Value error, ")
        raise TaskFileError(f"{name}, line {line}: {field}: {message}") from None


def load_task(path: Path) -> Task:
    """Read and parse a task file; the size is checked before it is read."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_TASK_BYTES + 1)
    except OSError as exc:
        raise TaskFileError(f"{path.name}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_TASK_BYTES:
        raise TaskFileError(
            f"{path.name}: larger than {MAX_TASK_BYTES // 1024} KiB; not a task file"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(f"{path.name}: not UTF-8 text (byte {exc.start})") from None
    return parse_task(text, path.name)


def _looks_like_yaml(text: str) -> bool:
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return first.startswith(("%YAML", "---", "!!")) or bool(re.match(r"^[\w-]+:\s", first))


def _first_clause(message: str) -> str:
    return message.split("(at line")[0].strip() or message


_HEADER_RE = re.compile(r"^\s*(\[\[?)\s*([A-Za-z0-9_.\"' -]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY_RE = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\")\s*=")


def locate(text: str, loc: tuple[Any, ...]) -> int:
    """The 1-based line a validation error's location points at: the line of the key or table
    whose path shares the longest start with ``loc`` (the key's own line when the file has it,
    its table's header for a missing field), else line 1.

    Paths are built as TOML defines them: ``[[checks]]`` is the next item of ``checks``,
    ``[checks.pass]`` a table of the last such item, ``key = ...`` a key of the current table
    (an inline table or array stays on its key's line)."""
    wanted = tuple("pass" if part == "passes" else part for part in loc)
    counts: dict[str, int] = {}
    prefix: tuple[Any, ...] = ()
    best, best_line = 0, 1
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER_RE.match(line)
        if header:
            parts = [p.strip().strip("\"'") for p in header.group(2).split(".")]
            path: list[Any] = []
            for depth, part in enumerate(parts):
                path.append(part)
                last = depth == len(parts) - 1
                if last and header.group(1) == "[[":
                    counts[".".join(map(str, path))] = counts.get(".".join(map(str, path)), 0) + 1
                if (not last or header.group(1) == "[[") and ".".join(map(str, path)) in counts:
                    path.append(counts[".".join(map(str, path))] - 1)
            prefix = tuple(path)
            found: tuple[Any, ...] = prefix
        else:
            key = _KEY_RE.match(line)
            if key is None:
                continue
            found = (*prefix, key.group(1).strip('"'))
        shared = 0
        for have, want in zip(found, wanted, strict=False):
            if have != want:
                break
            shared += 1
        if shared > best:
            best, best_line = shared, number
    return best_line
