"""Settings model and SettingsStore: atomic writes, recovery from bad files, no secrets, grants."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from pydantic import ValidationError

from gns3_copilot_desktop.core import settings as settings_mod
from gns3_copilot_desktop.core.errors import SettingsError
from gns3_copilot_desktop.core.settings import (
    CURRENT_VERSION,
    LlmProfile,
    ServerProfile,
    Settings,
    SettingsStore,
    normalize_server_url,
)

API_KEY = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"


def _sample() -> Settings:
    return Settings(
        servers=[ServerProfile(url="http://127.0.0.1:3080", username="admin")],
        current_server="http://127.0.0.1:3080",
        last_project_id="p-1",
        llm_profiles=[
            LlmProfile(
                id="openai-main",
                name="OpenAI",
                provider="openai",
                model="gpt-4.1",
                temperature=0.2,
                max_tokens=4096,
                context_window=128_000,
                timeout_s=60,
            )
        ],
        active_llm_profile="openai-main",
        compact_tool_cards=True,
        language="de",
    )


def test_missing_file_gives_defaults_without_a_message(tmp_path: Path):
    result = SettingsStore(tmp_path / "settings.json").load()
    assert result.settings == Settings()
    assert result.settings.heartbeat_interval_s == 15
    assert result.recovered_from is None and result.message is None


def test_round_trip(tmp_path: Path):
    store = SettingsStore(tmp_path / "cfg" / "settings.json")
    store.save(_sample())
    loaded = store.load()
    assert loaded.message is None
    assert loaded.settings == _sample()
    assert json.loads(store.path.read_text(encoding="utf-8"))["version"] == CURRENT_VERSION
    assert [p.name for p in store.path.parent.iterdir()] == ["settings.json"]  # no temp left


@pytest.mark.asyncio
async def test_async_wrappers(tmp_path: Path):
    store = SettingsStore(tmp_path / "settings.json")
    await store.asave(_sample())
    assert (await store.aload()).settings.active_llm_profile == "openai-main"


def test_failing_write_leaves_the_old_file_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    store = SettingsStore(tmp_path / "settings.json")
    store.save(_sample())
    before = store.path.read_bytes()

    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(settings_mod.os, "fsync", broken_fsync)
    changed = _sample()
    changed.language = "fr"
    with pytest.raises(SettingsError, match="No space left on device"):
        store.save(changed)
    assert store.path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not valid JSON"),
        ('["a list"]', "does not hold a JSON object"),
        ('{"version": 1, "heartbeat_interval_s": "often"}', "wrong type"),
        ('{"version": 1, "servers": [{"name": "no url"}]}', "wrong type"),
        ('{"version": 99}', "newer version"),
        ('{"version": "one"}', "not a valid number"),
    ],
)
def test_bad_file_is_moved_aside(tmp_path: Path, content: str, reason: str):
    path = tmp_path / "settings.json"
    path.write_text(content, encoding="utf-8")
    result = SettingsStore(path).load()
    assert result.settings == Settings()
    assert result.recovered_from is not None
    assert result.recovered_from.name.startswith("settings.json.corrupt-")
    assert result.recovered_from.read_text(encoding="utf-8") == content
    assert not path.exists()
    assert result.message is not None
    assert reason in result.message
    assert str(result.recovered_from) in result.message


def test_two_recoveries_in_the_same_second_keep_both_files(tmp_path: Path):
    path = tmp_path / "settings.json"
    store = SettingsStore(path)
    path.write_text("{bad", encoding="utf-8")
    first = store.load().recovered_from
    path.write_text("{worse", encoding="utf-8")
    second = store.load().recovered_from
    assert first is not None and second is not None and first != second
    assert first.read_text(encoding="utf-8") == "{bad"


def test_unreadable_file_is_moved_aside(tmp_path: Path):
    path = tmp_path / "settings.json"
    path.mkdir()  # reading a directory fails like an unreadable file
    result = SettingsStore(path).load()
    assert result.settings == Settings()
    assert result.recovered_from is not None and result.recovered_from.is_dir()
    assert result.message and "could not be read" in result.message


def test_unversioned_file_is_migrated(tmp_path: Path):
    path = tmp_path / "settings.json"
    path.write_text('{"last_project_id": "p-7"}', encoding="utf-8")
    result = SettingsStore(path).load()
    assert result.message is None
    assert result.settings.last_project_id == "p-7"
    assert result.settings.version == CURRENT_VERSION


def test_migrations_run_in_order(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(settings_mod, "CURRENT_VERSION", 3)
    monkeypatch.setattr(
        settings_mod,
        "MIGRATIONS",
        {
            1: lambda d: {**d, "steps": [*d.get("steps", []), 1]},
            2: lambda d: {**d, "steps": [*d["steps"], 2]},
        },
    )
    assert settings_mod.migrate({"version": 1}) == {"version": 3, "steps": [1, 2]}


def test_model_has_no_secret_fields_and_refuses_them():
    with pytest.raises(ValidationError, match="must not hold secrets") as info:
        LlmProfile.model_validate(
            {"id": "x", "name": "x", "provider": "openai", "model": "m", "api_key": API_KEY}
        )
    assert API_KEY not in str(info.value)
    with pytest.raises(ValidationError):
        ServerProfile.model_validate({"url": "http://h", "password": "pw"})

    class Leaky(Settings):
        jwt_token: str = ""

    with pytest.raises(TypeError, match="jwt_token"):
        settings_mod._check_no_secret_fields(Leaky)


def test_saving_a_profile_never_writes_a_key(tmp_path: Path):
    store = SettingsStore(tmp_path / "settings.json")
    settings = _sample()
    store.save(settings)
    text = store.path.read_text(encoding="utf-8")
    assert "api_key" not in text and "sk-" not in text
    settings.llm_profiles[0].base_url = f"https://llm.local/v1?key={API_KEY}"
    with pytest.raises(SettingsError, match="keyring"):
        store.save(settings)
    assert API_KEY not in store.path.read_text(encoding="utf-8")


def test_a_file_holding_a_secret_is_cleaned_on_load(tmp_path: Path):
    path = tmp_path / "settings.json"
    data = _sample().model_dump(mode="json")
    data["llm_profiles"][0]["api_key"] = API_KEY
    data["servers"][0]["password"] = "admin-password"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = SettingsStore(path).load()
    assert result.settings == _sample()
    assert result.message and "llm_profiles.0.api_key" in result.message
    assert "servers.0.password" in result.message
    text = path.read_text(encoding="utf-8")
    assert API_KEY not in text and "admin-password" not in text


def test_always_allow_grants():
    settings = Settings()
    settings.grant_always_allow("HTTP://GNS3.local:80/v3/", "p1", "start_node")
    settings.grant_always_allow("http://gns3.local", "p1", "start_node")
    settings.grant_always_allow("http://gns3.local", "p1", "stop_node")
    settings.grant_always_allow("http://gns3.local", "p2", "start_node")
    assert settings.always_allow == {
        "http://gns3.local|p1": ["start_node", "stop_node"],
        "http://gns3.local|p2": ["start_node"],
    }
    assert settings.is_always_allowed("http://gns3.local/", "p1", "stop_node")
    assert not settings.is_always_allowed("http://gns3.local:3080", "p1", "stop_node")
    settings.revoke_always_allow("http://gns3.local", "p1", "start_node")
    settings.revoke_always_allow("http://gns3.local", "p1", "never_granted")
    assert settings.always_allowed("http://gns3.local", "p1") == ["stop_node"]
    settings.revoke_always_allow("http://gns3.local", "p1", "stop_node")
    assert "http://gns3.local|p1" not in settings.always_allow


def test_grants_survive_a_save(tmp_path: Path):
    store = SettingsStore(tmp_path / "settings.json")
    settings = Settings()
    settings.grant_always_allow("http://tokenhost:3080", "p1", "list_nodes")
    store.save(settings)
    assert store.load().settings.always_allowed("http://tokenhost:3080", "p1") == ["list_nodes"]


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:3080", "http://127.0.0.1:3080"),
        ("HTTP://Example.COM:80/", "http://example.com"),
        ("https://gns3.lab:443/v3/", "https://gns3.lab"),
        ("gns3.lab:3080", "http://gns3.lab:3080"),
        ("http://[::1]:3080/", "http://[::1]:3080"),
        ("https://proxy.lab/gns3/", "https://proxy.lab/gns3"),
    ],
)
def test_normalize_server_url(url: str, expected: str):
    assert normalize_server_url(url) == expected


def test_saved_file_is_private(tmp_path: Path):
    store = SettingsStore(tmp_path / "settings.json")
    store.save(Settings())
    if os.name == "posix":
        assert store.path.stat().st_mode & 0o077 == 0


@pytest.mark.parametrize("value", [True, False])
def test_a_file_with_the_removed_conversations_choice_still_loads(tmp_path: Path, value: bool):
    # Conversations always live in the app's data folder now; files written while the choice
    # existed keep everything else and are not moved aside.
    path = tmp_path / "settings.json"
    text = json.dumps({"version": 1, "last_project_id": "p-9", "conversations_in_project": value})
    path.write_text(text, encoding="utf-8")
    result = SettingsStore(path).load()
    assert result.message is None and result.recovered_from is None
    assert result.settings.last_project_id == "p-9"
    assert result.settings.version == CURRENT_VERSION == 2
    assert "conversations_in_project" not in result.settings.model_dump()
