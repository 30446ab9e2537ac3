"""The price table: known models are priced, unknown (local, test) models are not."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.pricing import estimate_cost


def test_known_model_is_priced_per_million_tokens() -> None:
    assert estimate_cost("gpt-4o", 1_000_000, 0) == pytest.approx(2.50)
    assert estimate_cost("gpt-4o", 1000, 1000) == pytest.approx(0.0125)


def test_longest_prefix_wins_and_provider_prefix_is_ignored() -> None:
    assert estimate_cost("gpt-4o-mini-2024-07-18", 1_000_000, 1_000_000) == pytest.approx(0.75)
    assert estimate_cost("openai/GPT-4o", 0, 1_000_000) == pytest.approx(10.0)


@pytest.mark.parametrize("name", ["llama3.1:8b", "qwen2.5-7b-instruct", "scripted", ""])
def test_unknown_model_has_no_cost(name: str) -> None:
    assert estimate_cost(name, 1000, 1000) is None
