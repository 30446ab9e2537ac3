"""Models, URL/TLS setup, backoff and the websocket target: no network, no event loop."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gns3_copilot_desktop.core.errors import Gns3ConnectionError, Gns3Error
from gns3_copilot_desktop.core.gns3 import AuthToken, Backoff, Gns3Client, Notification
from gns3_copilot_desktop.core.gns3.models import decode_jwt_payload, token_expired
from gns3_copilot_desktop.core.gns3.notifications import WsTarget, _ws_log
from tests.helpers.gns3_server import craft_hs256_token


def test_auth_token_reads_exp_and_sub_without_the_secret() -> None:
    token = craft_hs256_token("whatever", "bob", 1_900_000_000)
    auth = AuthToken.from_jwt(token)
    assert auth.username == "bob"
    assert auth.expires_at == datetime.fromtimestamp(1_900_000_000, tz=UTC)
    assert not auth.is_expired(datetime(2030, 1, 1, tzinfo=UTC))
    assert auth.is_expired(datetime(2031, 1, 1, tzinfo=UTC))
    assert token not in repr(auth)


@pytest.mark.parametrize("garbage", ["", "abc", "a.b.c", "a.!!!.c", "a.bnVsbA.c"])
def test_unreadable_tokens_have_no_payload_and_never_count_as_expired(garbage: str) -> None:
    assert decode_jwt_payload(garbage) == {}
    assert not token_expired(garbage)
    assert AuthToken.from_jwt(garbage).expires_at is None


def test_notification_typed_helpers() -> None:
    node_event = Notification.model_validate(
        {
            "action": "node.updated",
            "event": {
                "node_id": "n1",
                "name": "sw1",
                "node_type": "ethernet_switch",
                "status": "started",
                "ports": [{"name": "Ethernet0", "adapter_number": 0, "port_number": 0}],
                "unknown_field": 1,
            },
        }
    )
    assert node_event.node is not None
    assert (node_event.node.name, node_event.node.ports[0].name) == ("sw1", "Ethernet0")
    assert node_event.link is None and node_event.project is None
    assert not node_event.is_ping
    error = Notification.model_validate({"action": "log.error", "event": {"message": "nope"}})
    assert error.error_message == "nope"
    bare = Notification.model_validate({"action": "custom", "event": 5})
    assert bare.event == {"value": 5}
    broken = Notification.model_validate({"action": "node.created", "event": {"name": "x"}})
    assert broken.node is None  # no node_id: not a node, but the raw event stays readable
    assert broken.event == {"name": "x"}


def test_backoff_grows_is_capped_and_jittered() -> None:
    backoff = Backoff(initial=1.0, maximum=8.0, factor=2.0, jitter=0.25)
    for failures, base in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (9, 8.0)]:
        delays = {backoff.delay(failures) for _ in range(50)}
        assert all(base * 0.75 <= d <= base * 1.25 for d in delays)
        assert len(delays) > 1  # jittered, not a fixed schedule


def test_ws_target_url_carries_the_token_and_the_label_does_not() -> None:
    target = WsTarget(
        server="https://gns3.test:3443",
        path="/v3/notifications/ws",
        token=lambda: "a.b+c",
    )
    assert target.url("a.b+c") == "wss://gns3.test:3443/v3/notifications/ws?token=a.b%2Bc"
    assert "token" not in target.label
    plain = WsTarget(server="http://h:1", path="/v3/x", token=lambda: None)
    assert plain.url("t").startswith("ws://h:1/v3/x?")


def test_websocket_logger_redacts_the_token(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=_ws_log.name)
    _ws_log.debug("> GET %s HTTP/1.1", "/v3/notifications/ws?token=eyJsecret.part.sig&x=1")
    assert caplog.records[-1].getMessage() == (
        "> GET /v3/notifications/ws?token=<redacted>&x=1 HTTP/1.1"
    )


def test_unreadable_ca_certificate_is_reported(tmp_path: Path) -> None:
    bogus = tmp_path / "ca.pem"
    bogus.write_text("not a certificate")
    with pytest.raises(Gns3ConnectionError, match=r"ca\.pem set for https://gns3\.test"):
        Gns3Client("https://gns3.test", ca_cert=bogus)
    with pytest.raises(Gns3ConnectionError, match="cannot be used"):
        Gns3Client("https://gns3.test", ca_cert=tmp_path / "missing.pem")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("http://h:3080", "http://h:3080"),
        ("http://h:3080/", "http://h:3080"),
        (" https://h/v3/ ", "https://h"),
    ],
)
def test_base_url_is_normalized(given: str, expected: str) -> None:
    assert Gns3Client(given).base_url == expected


def test_base_url_without_scheme_is_rejected() -> None:
    with pytest.raises(Gns3Error, match="must start with http"):
        Gns3Client("gns3.test:3080")
