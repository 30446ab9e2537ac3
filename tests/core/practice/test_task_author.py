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


def test_a_catalog_fault_in_a_task_is_filled_from_its_params_for_the_devices_platform() -> None:
    import pytest

    from gns3_copilot_desktop.core.practice.task import TaskFileError
    from gns3_copilot_desktop.core.practice.task_checks import catalog_entry_steps, fill_steps

    def catalog_steps(fault: TaskFault, which: str, node_type: str) -> object:
        steps = catalog_entry_steps(fault, which, node_type)  # type: ignore[arg-type]
        assert steps is not None
        return fill_steps(fault, steps)

    fault = TaskFault.model_validate(
        {
            "device": "PC1",
            "catalog": "vpcs-wrong-gateway",
            "params": {
                "address": "192.0.2.1",
                "prefix": "24",
                "wrong_gateway": "192.0.2.99",
                "gateway": "192.0.2.254",
            },
        }
    )
    assert catalog_steps(fault, "inject", "vpcs") == (["ip 192.0.2.1/24 192.0.2.99"], [])
    assert catalog_steps(fault, "undo", "vpcs") == (["ip 192.0.2.1/24 192.0.2.254"], [])
    with pytest.raises(TaskFileError, match="no steps for PC1"):
        catalog_steps(fault, "inject", "docker")
    short = TaskFault.model_validate(
        {"device": "PC1", "catalog": "vpcs-wrong-gateway", "params": {"address": "192.0.2.1"}}
    )
    with pytest.raises(TaskFileError, match="needs the parameter 'prefix'"):
        catalog_steps(short, "inject", "vpcs")
