"""Local model servers on this computer: which ones answer, what they serve, how large a window.

Students and air-gapped labs run a model behind llama.cpp's server, llama-cpp-python's, Ollama or
LM Studio. `detect_local_servers` asks a base URL the user typed and each usual loopback port (all
at once, briefly) what it is, by the routes only that software has, so the profile gets the right
wire quirks (`model_factory.SERVER_QUIRKS`) and the context window the server really runs with:

- llama.cpp's server: ``/props`` -> ``default_generation_settings.n_ctx``;
- llama-cpp-python: a window in its ``/v1/models`` entries if a version sends one, else its
  settings as it was started (``--n_ctx`` on its command line, ``N_CTX`` in its environment, its
  ``--config_file``; 2,048 when none is given), read from the process that listens on the port
  when it runs on this computer as this user (Linux ``/proc``);
- Ollama: ``/api/show`` -> the ``num_ctx`` parameter, else ``model_info``'s ``*.context_length``;
- LM Studio: ``/api/v0/models`` -> the loaded model's ``loaded_context_length``, else
  ``max_context_length``.
When none of these says it, the window is None ("unknown"), never a guess.

Only 127.0.0.1's usual ports are asked, and the one base URL the user typed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from gns3_copilot_desktop.core.agent.model_factory import OLLAMA_DEFAULT_HOST, LlmConfig
from gns3_copilot_desktop.core.agent.model_quirks import ServerKind
from gns3_copilot_desktop.core.agent.server_process import llama_cpp_python_window

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
    """The window the server runs with (or Ollama's model's own); None when it cannot be
    learned."""

    @property
    def label(self) -> str:
        """``llama-cpp-python at 127.0.0.1:8000``, for the settings."""
        names = {
            "llama_cpp": "llama.cpp",
            "llama_cpp_python": "llama-cpp-python",
            "ollama": "Ollama",
            "lm_studio": "LM Studio",
        }
        host = self.base_url.split("://", 1)[-1].removesuffix("/v1")
        return f"{names.get(self.kind, 'OpenAI-compatible server')} at {host}"


async def detect_local_servers(
    ports: Iterable[int] = DEFAULT_PORTS,
    *,
    typed_url: str | None = None,
    timeout_s: float = PROBE_TIMEOUT_S,
) -> list[LocalServer]:
    """The servers answering at ``typed_url`` (first: the user named it) and on ``ports`` of
    127.0.0.1, in that order, each once."""
    roots = [f"http://127.0.0.1:{port}" for port in ports]
    typed = server_root(typed_url) if typed_url else None
    if typed is not None:
        roots = [typed, *(r for r in roots if r != typed)]
    async with httpx.AsyncClient(timeout=timeout_s, trust_env=False) as client:
        found = await asyncio.gather(*(identify_root(client, root) for root in roots))
    return [server for server in found if server is not None]


async def served_context_window(
    config: LlmConfig, *, timeout_s: float = PROBE_TIMEOUT_S
) -> int | None:
    """The context window the server of a local model runs with, read from it now; None for a
    cloud model or when the server does not say it."""
    if not config.is_local:
        return None
    url = config.base_url or (OLLAMA_DEFAULT_HOST if config.provider == "ollama" else None)
    root = server_root(url) if url else None
    if root is None:
        return None
    async with httpx.AsyncClient(timeout=timeout_s, trust_env=False) as client:
        server = await identify_root(client, root)
    return server.context_window if server is not None else None


def server_root(url: str) -> str | None:
    """``http://host:port`` of a typed base URL (``127.0.0.1:8080``, ``http://h:1234/v1/``), or
    None when it is not one."""
    text = url.strip()
    if not text:
        return None
    parts = urlsplit(text if "://" in text else f"http://{text}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    try:
        port = parts.port
    except ValueError:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


async def identify(client: httpx.AsyncClient, port: int) -> LocalServer | None:
    """What answers on ``port`` of 127.0.0.1, or None when nothing does (or nothing we know)."""
    return await identify_root(client, f"http://127.0.0.1:{port}")


async def identify_root(client: httpx.AsyncClient, root: str) -> LocalServer | None:
    """What answers at ``root`` (``http://host:port``), or None when nothing we know does."""
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
        listed = _window_in_models(models["data"])
        if "llama.cpp python" in str(title).lower():
            window = listed or await asyncio.to_thread(llama_cpp_python_window, root)
            return LocalServer("llama_cpp_python", f"{root}/v1", names, window)
        return LocalServer("compatible", f"{root}/v1", names, listed)
    except httpx.HTTPError as exc:
        log.debug("nothing usable at %s: %s", root, type(exc).__name__)
        return None


_WINDOW_KEYS = ("n_ctx", "context_length", "max_context_length", "context_window", "max_model_len")


def _window_in_models(data: list[Any]) -> int | None:
    """A context window an OpenAI-style model list carries (vLLM's ``max_model_len``, a
    ``meta``/``metadata`` object), for its first model that has one."""
    for entry in data:
        if not isinstance(entry, dict):
            continue
        for holder in (entry, entry.get("meta"), entry.get("metadata")):
            if isinstance(holder, dict):
                for key in _WINDOW_KEYS:
                    if (window := _positive(holder.get(key))) is not None:
                        return window
    return None


async def _ollama(client: httpx.AsyncClient, root: str, models: list[Any]) -> LocalServer:
    names = sorted(str(m["name"]) for m in models if isinstance(m, dict) and m.get("name"))
    window = None
    if names:
        shown = await _json(client, f"{root}/api/show", {"model": names[0]})
        shown = shown if isinstance(shown, dict) else {}
        window = _num_ctx(shown.get("parameters"))
        info = shown.get("model_info")
        if window is None and isinstance(info, dict):
            window = next(
                (_positive(v) for k, v in info.items() if str(k).endswith(".context_length")),
                None,
            )
    return LocalServer("ollama", f"{root}/v1", names, window)


def _num_ctx(parameters: object) -> int | None:
    """``num_ctx`` from Ollama's ``parameters`` text (one ``name value`` a line)."""
    for line in str(parameters or "").splitlines():
        name, _, value = line.strip().partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return _positive(int(value.strip()))
    return None


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
