"""`gns3-copilot serve` listens on loopback unless TLS (or an explicit --insecure-http) is given."""

from __future__ import annotations

import pytest

from gns3_copilot_desktop.service.cli import check_listen, parse_args, run


@pytest.mark.parametrize(
    ("argv", "refused"),
    [
        ([], False),
        (["--host", "::1"], False),
        (["--host", "localhost"], False),
        (["--host", "0.0.0.0"], True),
        (["--host", "192.0.2.10"], True),
        (["--host", "0.0.0.0", "--tls-cert", "c.pem"], True),  # the key is missing
        (["--host", "0.0.0.0", "--tls-cert", "c.pem", "--tls-key", "k.pem"], False),
        (["--host", "0.0.0.0", "--insecure-http"], False),
    ],
)
def test_other_addresses_need_tls_or_an_explicit_insecure_http(
    argv: list[str], refused: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    problem = check_listen(parse_args(argv))
    assert (problem is not None) is refused
    if "--insecure-http" in argv:
        assert "WARNING" in capsys.readouterr().err


def test_a_refused_listen_exits_2_before_anything_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["--host", "0.0.0.0", "--port", "1"]) == 2
    assert "needs TLS" in capsys.readouterr().err
    assert run(["--database", "mysql://x/y"]) == 2
    assert "give sqlite or a postgresql:// URL" in capsys.readouterr().err
