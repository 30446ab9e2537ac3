"""Task files as a trainer writes them, and as a hostile one could: every refusal names its line
and nothing of the file reaches a device."""

from __future__ import annotations

from pathlib import Path

import pytest

from gns3_copilot_desktop.core.practice.task import (
    MAX_TASK_BYTES,
    TaskFileError,
    load_task,
    locate,
    parse_task,
)
from gns3_copilot_desktop.core.practice.task_checks import (
    CheckResult,
    condition_holds,
    score,
)

GOOD = """\
format = 1
title = "The lost gateway"
ticket = "PC1 cannot reach PC2 since this morning."
level = "beginner"
time_limit_min = 20
hints = ["Compare the two hosts' addresses."]

[lab]
project = "branch.gns3project"

[[faults]]
device = "PC2"
inject = ["ip 10.9.9.2/24"]
undo = ["ip 10.1.1.2/24"]

[[checks]]
title = "PC1 reaches PC2"
device = "PC1"
command = "ping 10.1.1.2 -c 2"
pass = { ping_max_loss = 50 }
retries = 1
wait_s = 0.5
on_fail = "PC1 gets no answer from PC2."
points = 60

[[checks]]
title = "PC2 has its address"
device = "PC2"
command = "show ip"
points = 40

[checks.pass]
contains = "10.1.1.2/24"
"""


def test_a_task_as_a_trainer_writes_it() -> None:
    task = parse_task(GOOD)
    assert task.title == "The lost gateway" and task.level == "beginner"
    assert task.lab.project == "branch.gns3project" and task.lab.plan is None
    assert [c.points for c in task.checks] == [60, 40] and task.total_points == 100
    assert task.checks[0].passes.ping_max_loss == 50 and task.checks[0].retries == 1
    assert task.checks[1].passes.contains == "10.1.1.2/24"
    assert task.faults[0].inject == ["ip 10.9.9.2/24"]


def _error(text: str) -> str:
    with pytest.raises(TaskFileError) as caught:
        parse_task(text, "class.toml")
    return str(caught.value)


def _line_of(text: str, needle: str, nth: int = 1) -> int:
    hits = [n for n, line in enumerate(text.splitlines(), start=1) if needle in line]
    return hits[nth - 1]


@pytest.mark.parametrize(
    ("old", "new", "needle", "words"),
    [
        # an unknown field, at the top and inside a check
        ('level = "beginner"', 'level = "beginner"\nanswer = "PC2"', "answer =", "Extra inputs"),
        ("retries = 1", "retries = 1\nsecret = 1", "secret =", "Extra inputs"),
        # wrong types: no quiet coercion of "20" into 20
        ("time_limit_min = 20", 'time_limit_min = "20"', "time_limit_min", "integer"),
        ("points = 60", 'points = "60"', "points = ", "integer"),
        # a check that writes, or that the gate refuses
        ('command = "show ip"', 'command = "ip 10.1.1.3/24"', 'command = "ip', "not a read"),
        ('command = "show ip"', 'command = "!touch /tmp/x"', 'command = "!', "gate refuses"),
        ('command = "show ip"', 'command = "show\\u200aip"', 'command = "show', "gate refuses"),
        # an inject line the gate refuses (VPCS `!` runs on the GNS3 host)
        ('inject = ["ip 10.9.9.2/24"]', 'inject = ["!rm -rf ~"]', "inject =", "gate refuses"),
        ('undo = ["ip 10.1.1.2/24"]', 'undo = ["reload"]', "undo =", "gate refuses"),
        # a lab file out of the task's folder
        ('project = "branch.gns3project"', 'project = "../../.bashrc"', "project =", "beside"),
        ('project = "branch.gns3project"', 'project = "/etc/passwd"', "project =", "beside"),
        # a condition that is not exactly one
        ('contains = "10.1.1.2/24"', 'contains = "x"\nregex = "y"', "[checks.pass]", "exactly one"),
        ('contains = "10.1.1.2/24"', 'regex = "(unclosed"', "regex =", "regular expression"),
        # an unknown catalog fault
        (
            'inject = ["ip 10.9.9.2/24"]\nundo = ["ip 10.1.1.2/24"]',
            'catalog = "no-such-fault"',
            "[[faults]]",
            "no fault",
        ),
        # a link fault that does not say which link (or names its own device as the far end)
        (
            'inject = ["ip 10.9.9.2/24"]\nundo = ["ip 10.1.1.2/24"]',
            'catalog = "link-suspended"',
            "[[faults]]",
            "other end",
        ),
        (
            'inject = ["ip 10.9.9.2/24"]\nundo = ["ip 10.1.1.2/24"]',
            'catalog = "link-suspended"\nparams = { peer = "x;reboot" }',
            "[[faults]]",
            "other end",
        ),
    ],
)
def test_a_bad_task_is_refused_naming_its_line(old: str, new: str, needle: str, words: str) -> None:
    text = GOOD.replace(old, new, 1)
    assert text != GOOD
    message = _error(text)
    assert f"class.toml, line {_line_of(text, needle)}:" in message, message
    assert words in message, message


def test_the_total_must_match_the_checks() -> None:
    message = _error(GOOD.replace("time_limit_min = 20", "time_limit_min = 20\npoints = 90"))
    assert "points is 90 but the checks add up to 100" in message


def test_toml_syntax_errors_and_yaml_name_their_line() -> None:
    broken = GOOD.replace('title = "PC2 has its address"', 'title = "PC2 has')
    message = _error(broken)
    line = _line_of(broken, 'title = "PC2 has')
    assert f"line {line}" in message and "TOML" in message
    yaml = "---\nformat: 1\nbomb: &a [*a, *a]\n"
    assert "TOML, not YAML" in _error(yaml)
    assert "TOML, not YAML" in _error("format: 1\ntitle: !!python/object:os.system x\n")


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    with path.open("wb") as handle:
        handle.write(GOOD.encode())
        handle.write(b"#" * MAX_TASK_BYTES)
    with pytest.raises(TaskFileError, match="larger than 256 KiB"):
        load_task(path)
    with pytest.raises(TaskFileError, match="larger than"):
        parse_task(GOOD + "#" * MAX_TASK_BYTES)
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe format = 1")
    with pytest.raises(TaskFileError, match="not UTF-8"):
        load_task(tmp_path / "bin.toml")
    (tmp_path / "ok.toml").write_text(GOOD)
    assert load_task(tmp_path / "ok.toml").title == "The lost gateway"


def test_locate_finds_keys_in_the_nth_table() -> None:
    assert locate(GOOD, ("checks", 1, "command")) == _line_of(GOOD, 'command = "show ip"')
    assert locate(GOOD, ("checks", 0, "command")) == _line_of(GOOD, 'command = "ping')
    assert locate(GOOD, ("checks", 1, "pass", "contains")) == _line_of(GOOD, "contains =")
    assert locate(GOOD, ("checks", 1, "pass")) == _line_of(GOOD, "[checks.pass]")
    assert locate(GOOD, ("checks", 0, "pass")) == _line_of(GOOD, "pass = {")
    assert locate(GOOD, ("faults", 0, "device")) == _line_of(GOOD, 'device = "PC2"')
    assert locate(GOOD, ("checks", 1, "wait_s")) == _line_of(GOOD, "[[checks]]", 2)
    assert locate(GOOD, ("lab", "project")) == _line_of(GOOD, "project =")
    assert locate(GOOD, ("title",)) == 2
    assert locate(GOOD, ()) == 1


def test_conditions_and_score() -> None:
    task = parse_task(GOOD)
    ping, show = task.checks
    assert condition_holds(
        ping.passes, "10.1.1.2 icmp_seq=1 ttl=64 time=1 ms\n10.1.1.2 icmp_seq=2 timeout"
    )
    assert not condition_holds(ping.passes, "IP/MASK : 10.1.1.2/24")  # no ping is no pass
    assert condition_holds(show.passes, "IP/MASK     : 10.1.1.2/24")
    assert not condition_holds(show.passes, "IP/MASK     : 10.1.1.20/24 ")
    results = [
        CheckResult("a", "pass", "", 60),
        CheckResult("b", "cannot-check", "", 0),
    ]
    assert score(results) == 60
