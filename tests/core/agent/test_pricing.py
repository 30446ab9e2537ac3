"""The price table: known models at their provider's own endpoint are priced, nothing else is."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.core.agent.pricing import estimate_cost, is_official_endpoint


def test_known_model_is_priced_per_million_tokens() -> None:
    assert estimate_cost("openai", None, "gpt-4o", 1_000_000, 0) == pytest.approx(2.50)
    assert estimate_cost("openai", None, "gpt-4o", 1000, 1000) == pytest.approx(0.0125)


def test_longest_prefix_wins_and_provider_prefix_is_ignored() -> None:
    cost = estimate_cost("openai", None, "gpt-4o-mini-2024-07-18", 1_000_000, 1_000_000)
    assert cost == pytest.approx(0.75)
    assert estimate_cost("openai", None, "openai/GPT-4o", 0, 1_000_000) == pytest.approx(10.0)


@pytest.mark.parametrize("name", ["llama3.1:8b", "qwen2.5-7b-instruct", "scripted", ""])
def test_unknown_model_has_no_cost(name: str) -> None:
    assert estimate_cost("openai", None, name, 1000, 1000) is None


@pytest.mark.parametrize(
    ("provider", "base_url", "model"),
    [
        ("openai", None, "gpt-4o"),
        ("openai", "", "gpt-4o"),
        ("openai", "https://api.openai.com/v1", "gpt-4o"),
        ("openai", "https://API.OpenAI.com/v1/", "gpt-4o"),
        ("anthropic", "https://api.anthropic.com", "claude-sonnet-4-20250514"),
        ("deepseek", None, "deepseek-chat"),
        ("deepseek", "https://api.deepseek.com", "deepseek-chat"),
        ("deepseek", "https://api.deepseek.com/v1", "deepseek-reasoner"),
    ],
)
def test_the_providers_own_endpoint_is_priced(
    provider: str, base_url: str | None, model: str
) -> None:
    assert is_official_endpoint(provider, base_url)
    assert estimate_cost(provider, base_url, model, 1000, 1000) is not None


@pytest.mark.parametrize(
    ("provider", "base_url"),
    [
        # an OpenAI-compatible server or proxy that calls its model "gpt-4o" is not OpenAI
        ("openai_compatible", "http://127.0.0.1:8080/v1"),
        ("openai_compatible", "https://api.openai.com/v1"),
        ("openai", "http://127.0.0.1:8080/v1"),
        ("openai", "https://my-proxy.example.com/v1"),
        ("openai", "http://api.openai.com/v1"),
        ("openai", "https://api.openai.com.evil.example/v1"),
        ("openai", "https://api.openai.com:8443/v1"),
        ("openai", "https://api.anthropic.com"),
        ("ollama", None),
        ("", None),
    ],
)
def test_a_known_model_name_elsewhere_is_not_priced(provider: str, base_url: str | None) -> None:
    assert not is_official_endpoint(provider, base_url)
    assert estimate_cost(provider, base_url, "gpt-4o", 1000, 1000) is None
