"""A small price table of well-known hosted models, to estimate what a session cost.

Prices are USD per one million input / output tokens, as published by the providers. Models not in
the table (local Ollama or LM Studio models, test models) have no known price: `estimate_cost`
returns None and the UI shows a dash instead of a made-up figure.
"""

from __future__ import annotations

from typing import NamedTuple


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


def price_of(model_name: str) -> Price | None:
    """The price of a model, matched by the longest known prefix (case-insensitive), or None."""
    name = model_name.strip().lower().rsplit("/", 1)[-1]
    best: str | None = None
    for key in PRICES:
        if name.startswith(key) and (best is None or len(key) > len(best)):
            best = key
    return PRICES[best] if best is not None else None


def estimate_cost(model_name: str, input_tokens: int, output_tokens: int) -> float | None:
    """The USD cost of the tokens with this model, or None when its price is not known."""
    price = price_of(model_name)
    if price is None:
        return None
    return (input_tokens * price.input_per_m + output_tokens * price.output_per_m) / 1_000_000
