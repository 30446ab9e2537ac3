"""A task written from the editor's choices reads back as the same task, whatever the trainer
typed (quotes, backslashes, new lines, Chinese, TOML syntax in a title)."""

from __future__ import annotations

from gns3_copilot_desktop.core.practice.task import TaskCheck, TaskFault, parse_task
from gns3_copilot_desktop.core.practice.task_author import TaskDraft, render_task


def test_the_file_reads_back_as_the_same_task_whatever_was_typed() -> None:
    check = TaskCheck.model_validate(
        {
            "title": 'PC1 "reaches" PC2 \\ ]] [[faults]] = 1',
            "device": "PC1",
            "command": "ping 192.0.2.2 -c 2",
            "pass": {"ping_max_loss": 50},
            "points": 70,
            "on_fail": "不通\nnew line",
        }
    )
    fault = TaskFault.model_validate(
        {"device": "PC1", "inject": ["ip 198.51.100.9/24"], "undo": ["ip 192.0.2.1/24"]}
    )
    draft = TaskDraft(
        title='A "quoted" title\\',
        ticket="Line one\nline two: PC1 不能访问 PC2",
        level="advanced",
        time_limit_min=45,
        hints=["look at PC1"],
        faults=[fault],
        checks=[check],
    )
    task = parse_task(render_task(draft))
    assert task.title == draft.title and task.ticket == draft.ticket
    assert task.level == "advanced" and task.time_limit_min == 45 and task.hints == ["look at PC1"]
    assert task.faults == [fault]
    assert task.checks == [check]
    assert task.total_points == 70
