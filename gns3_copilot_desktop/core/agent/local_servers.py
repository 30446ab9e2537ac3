"""Local model servers on this computer: which ones answer, what they serve, how large a window.

Students and air-gapped labs run a model behind llama.cpp's server, llama-cpp-python's, Ollama or
LM Studio. `detect_local_servers` asks each usual loopback port (all at once, briefly) what it is,
by the routes only that software has, so the profile gets the right wire quirks
(`model_factory.SERVER_QUIRKS`) and, where the server says it, the real context window.

Only 127.0.0.1 is asked, and only the ports given.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx

from gns3_copilot_desktop.core.agent.model_factory import ServerKind

log = logging.getLogger(__name__)

# The port each one listens on when started as its documentation shows.
DEFAULT_PORTS: Mapping[int, str] = {
    8080: "llama.cpp (llama-server)",
    8000: "llama-cpp-python",
    11434: "Ollama",
    1234: "LM Studio",
}
PROBE_TIMEOUT_S = 1.5


@dataclass(frozen=True)
class LocalServer:
    """One local server that answered."""

    kind: ServerKind
    base_url: str
    """The OpenAI-compatible base URL (ends in ``/v1``)."""
    models: list[str] = field(default_factory=list)
    context_window: int | None = None
    """The window the server runs with (llama-server, LM Studio) or the model's own (Ollama);
    None when the server does not say (llama-cpp-python)."""

    @property
    def label(self) -> str:
        """``llama-cpp-python at 127.0.0.1:8000``, for the settings."""
        names = {
            "llama_cpp": "llama.cpp",
            "llama_cpp_python": "llama-cpp-python",
            "ollama": "Ollama",
            "lm_studio": "LM Studio",
        }
        host = self.base_url.removeprefix("http://").removesuffix("/v1")
        return f"{names.get(self.kind, 'OpenAI-compatible server')} at {host}"


async def detect_local_servers(
    ports: Iterable[int] = DEFAULT_PORTS, *, timeout_s: float = PROBE_TIMEOUT_S
) -> list[LocalServer]:
    """The local servers answering on ``ports`` of 127.0.0.1, in the order of ``ports``."""
    async with httpx.AsyncClient(timeout=timeout_s, trust_env=False) as client:
        found = await asyncio.gather(*(identify(client, port) for port in ports))
    return [server for server in found if server is not None]


async def identify(client: httpx.AsyncClient, port: int) -> LocalServer | None:
    """What answers on ``port``, or None when nothing does (or nothing we know)."""
    root = f"http://127.0.0.1:{port}"
    try:
        tags = await _json(client, f"{root}/api/tags")
        if isinstance(tags, dict) and isinstance(tags.get("models"), list):
            return await _ollama(client, root, tags["models"])
        lm_studio = await _json(client, f"{root}/api/v0/models")
        if isinstance(lm_studio, dict) and isinstance(lm_studio.get("data"), list):
            return _lm_studio(root, lm_studio["data"])
        models = await _json(client, f"{root}/v1/models")
        if not (isinstance(models, dict) and isinstance(models.get("data"), list)):
            return None
        names = [str(m["id"]) for m in models["data"] if isinstance(m, dict) and m.get("id")]
        props = await _json(client, f"{root}/props")
        if isinstance(props, dict) and "default_generation_settings" in props:
            settings = props["default_generation_settings"]
            window = settings.get("n_ctx") if isinstance(settings, dict) else None
            return LocalServer("llama_cpp", f"{root}/v1", names, _positive(window))
        openapi = await _json(client, f"{root}/openapi.json")
        title = openapi.get("info", {}).get("title", "") if isinstance(openapi, dict) else ""
        if "llama.cpp python" in str(title).lower():
            return LocalServer("llama_cpp_python", f"{root}/v1", names, None)
        return LocalServer("compatible", f"{root}/v1", names, None)
    except httpx.HTTPError as exc:
        log.debug("nothing usable on port %s: %s", port, type(exc).__name__)
        return None


async def _ollama(client: httpx.AsyncClient, root: str, models: list[Any]) -> LocalServer:
    names = sorted(str(m["name"]) for m in models if isinstance(m, dict) and m.get("name"))
    window = None
    if names:
        shown = await _json(client, f"{root}/api/show", {"model": names[0]})
        info = shown.get("model_info") if isinstance(shown, dict) else None
        if isinstance(info, dict):
            window = next(
                (_positive(v) for k, v in info.items() if str(k).endswith(".context_length")),
                None,
            )
    return LocalServer("ollama", f"{root}/v1", names, window)


def _lm_studio(root: str, data: list[Any]) -> LocalServer:
    models = [m for m in data if isinstance(m, dict) and m.get("id")]
    loaded = [m for m in models if m.get("state") == "loaded"] or models
    window = None
    if loaded:
        first = loaded[0]
        window = _positive(first.get("loaded_context_length") or first.get("max_context_length"))
    return LocalServer("lm_studio", f"{root}/v1", [str(m["id"]) for m in models], window)


async def _json(client: httpx.AsyncClient, url: str, body: dict[str, Any] | None = None) -> Any:
    """The JSON answer of ``url``, or None for any other answer (404, HTML, not JSON)."""
    response = await (client.post(url, json=body) if body is not None else client.get(url))
    if response.status_code != 200:
        return None
    try:
        return response.json()
    except ValueError:
        return None


def _positive(value: object) -> int | None:
    return value if isinstance(value, int) and value > 0 else None
