"""The classroom's request bodies are data of a known shape: unknown fields, wrong types, NaN or
infinite times and unknown exam kinds are refused before a route reads them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gns3_copilot_desktop.service.classroom_routes import ExamCreate, StartRequest, TaskUpload

EXAM = '{"title": "Quiz", "task_ids": ["a1"], "group": "class-a", "duration_min": 30'


@pytest.mark.parametrize(
    "tail",
    [
        ', "starts_at": NaN}',
        ', "starts_at": Infinity}',
        ', "starts_at": -1}',
        ', "kind": "homework"}',
        ', "assist": "all"}',
        ', "duration_min": "30"}',
        ', "answers": true}',
        ', "task_ids": []}',
    ],
)
def test_a_malformed_exam_is_refused(tail: str) -> None:
    with pytest.raises(ValidationError):
        ExamCreate.model_validate_json(EXAM + tail)


def test_a_well_formed_exam_and_its_defaults() -> None:
    exam = ExamCreate.model_validate_json(EXAM + ', "starts_at": 1700000000}')
    assert exam.starts_at == 1_700_000_000.0 and exam.kind == "exam" and exam.assist == "off"


def test_other_bodies_refuse_what_they_do_not_know() -> None:
    with pytest.raises(ValidationError):
        StartRequest.model_validate_json('{"project_id": "p", "user_id": "someone-else"}')
    with pytest.raises(ValidationError):
        TaskUpload.model_validate_json('{"name": "t.toml", "text": ""}')
