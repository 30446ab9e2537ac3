"""A small price table of well-known hosted models, to estimate what a session cost.

Prices are USD per one million input / output tokens, as published by the providers. Models not in
the table (local Ollama or LM Studio models, test models) have no known price: `estimate_cost`
returns None and the UI shows a dash instead of a made-up figure.

A price holds only at the provider's own endpoint: an OpenAI-compatible server (or a proxy on a
custom base URL) that names its model "gpt-4o" is not OpenAI, so `estimate_cost` prices a model
only when `is_official_endpoint` says the provider's own API answers.
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import urlsplit


class Price(NamedTuple):
    """USD per one million input and output tokens."""

    input_per_m: float
    output_per_m: float


# Longest prefix wins, so "gpt-4o-mini" is not priced as "gpt-4o".
PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "o3-mini": Price(1.10, 4.40),
    "claude-3-5-sonnet": Price(3.00, 15.00),
    "claude-3-5-haiku": Price(0.80, 4.00),
    "claude-sonnet-4": Price(3.00, 15.00),
    "claude-opus-4": Price(15.00, 75.00),
    "deepseek-chat": Price(0.27, 1.10),
    "deepseek-reasoner": Price(0.55, 2.19),
}


# The hosts of the providers' own APIs; a provider absent here (Ollama, OpenAI-compatible) is never
# priced, whatever its model is called.
OFFICIAL_HOSTS: dict[str, tuple[str, ...]] = {
    "openai": ("api.openai.com",),
    "anthropic": ("api.anthropic.com",),
    "deepseek": ("api.deepseek.com",),
}


def is_official_endpoint(provider: str, base_url: str | None) -> bool:
    """Whether the provider's own API answers: no base URL, or an https URL on its own host."""
    hosts = OFFICIAL_HOSTS.get(provider)
    if hosts is None:
        return False
    if base_url is None or not base_url.strip():
        return True
    try:
        parts = urlsplit(base_url.strip())
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").rstrip(".")
    return parts.scheme == "https" and port in (None, 443) and host in hosts


def price_of(model_name: str) -> Price | None:
    """The price of a model, matched by the longest known prefix (case-insensitive), or None."""
    name = model_name.strip().lower().rsplit("/", 1)[-1]
    best: str | None = None
    for key in PRICES:
        if name.startswith(key) and (best is None or len(key) > len(best)):
            best = key
    return PRICES[best] if best is not None else None


def estimate_cost(
    provider: str, base_url: str | None, model_name: str, input_tokens: int, output_tokens: int
) -> float | None:
    """The USD cost of the tokens with this model at this endpoint, or None when not known.

    None also for a known model name served anywhere but its provider's own endpoint.
    """
    if not is_official_endpoint(provider, base_url):
        return None
    price = price_of(model_name)
    if price is None:
        return None
    return (input_tokens * price.input_per_m + output_tokens * price.output_per_m) / 1_000_000
