"""``gns3-copilot serve``: run the Chat API for other clients (scripts, a web page, a trainer's
dashboard, another computer's dock).

It listens on 127.0.0.1 unless told otherwise; any other address needs TLS (``--tls-cert`` and
``--tls-key``) or an explicit ``--insecure-http``, which prints a warning: the requests carry the
users' GNS3 tokens.
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import logging
import os
import sys
from pathlib import Path

from gns3_copilot_desktop.core.errors import CopilotError
from gns3_copilot_desktop.core.paths import app_paths
from gns3_copilot_desktop.core.sessions.pg_store import is_postgres_url

DEFAULT_PORT = 3081
INSECURE_WARNING = (
    "WARNING: serving over plain HTTP on {host}: the GNS3 tokens in every request can be read "
    "on the network. Use --tls-cert/--tls-key."
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="gns3-copilot serve", description="Serve the GNS3 Copilot Chat API over HTTP."
    )
    parser.add_argument("--gns3-server", default="http://127.0.0.1:3080", metavar="URL")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument(
        "--database",
        default="sqlite",
        metavar="URL",
        help="where conversations live: sqlite (one file per project, the default) or "
        "postgresql://user@host:port/dbname (every project in one PostgreSQL database; needs the "
        "'postgres' extra; the password from PGPASSWORD or ~/.pgpass, never on the command line)",
    )
    parser.add_argument("--data-dir", type=Path, help="folder for the service's databases")
    parser.add_argument("--model-base-url", metavar="URL", help="an OpenAI-compatible endpoint")
    parser.add_argument("--model", metavar="NAME", help="provider:model or the endpoint's model")
    parser.add_argument(
        "--idle-close",
        type=float,
        default=15.0,
        metavar="MINUTES",
        help="close the database of a project nobody used for this long (default 15)",
    )
    parser.add_argument(
        "--trainer-group",
        metavar="GROUP",
        help="members of this GNS3 user group are the classroom's trainers, besides GNS3 "
        "administrators (GNS3 must let them read their groups: the Group.Audit privilege)",
    )
    parser.add_argument(
        "--console-logins",
        type=Path,
        metavar="FILE",
        help="the class's router console logins (TOML, readable by the service's user only) "
        "for the tasks' checks and faults on routers",
    )
    parser.add_argument("--tls-cert", type=Path)
    parser.add_argument("--tls-key", type=Path)
    parser.add_argument("--insecure-http", action="store_true")
    return parser.parse_args(argv)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_listen(args: argparse.Namespace) -> str | None:
    """Why the service may not listen as asked (None when it may); prints the HTTP warning."""
    if bool(args.tls_cert) != bool(args.tls_key):
        return "--tls-cert and --tls-key go together."
    if _is_loopback(args.host) or args.tls_cert:
        return None
    if not args.insecure_http:
        return (
            f"Listening on {args.host} needs TLS: give --tls-cert and --tls-key "
            "(or --insecure-http to accept plain HTTP)."
        )
    print(INSECURE_WARNING.format(host=args.host), file=sys.stderr)
    return None


def run(argv: list[str]) -> int:
    """The ``serve`` command; returns the exit status."""
    args = parse_args(argv)
    problem = check_listen(args)
    if problem is None and args.database != "sqlite" and not is_postgres_url(args.database):
        problem = f"--database {args.database}: give sqlite or a postgresql:// URL."
    if problem is None and not 0 < args.idle_close < 1e6:
        problem = "--idle-close: give a number of minutes greater than 0."
    if problem:
        print(f"gns3-copilot serve: {problem}", file=sys.stderr)
        return 2
    logins = None
    if args.console_logins is not None:
        from gns3_copilot_desktop.service.console_logins import load_console_logins

        try:
            logins = load_console_logins(args.console_logins)
        except CopilotError as exc:
            print(f"gns3-copilot serve: {exc.user_message}", file=sys.stderr)
            return 2
    try:
        import uvicorn

        from gns3_copilot_desktop.core.agent.model_factory import resolve_llm_config
        from gns3_copilot_desktop.service.api import create_app
        from gns3_copilot_desktop.service.chat_service import ServiceConfig
    except ImportError as exc:
        print(
            f"gns3-copilot serve needs the 'serve' extra ({exc.name} is missing): "
            "pip install 'gns3-copilot-desktop[serve]'",
            file=sys.stderr,
        )
        return 2
    explicit = None
    if args.model_base_url:
        explicit = {
            "provider": "openai_compatible",
            "model": args.model or "default",
            "base_url": args.model_base_url,
        }
    env = dict(os.environ)
    if args.model and not args.model_base_url:
        env["GNS3_COPILOT_MODEL"] = args.model
    try:
        llm = asyncio.run(resolve_llm_config(explicit, None, None, env))
    except CopilotError as exc:
        print(f"gns3-copilot serve: {exc.user_message}", file=sys.stderr)
        return 2
    data_dir = args.data_dir or app_paths().data_dir / "service"
    app = create_app(
        ServiceConfig(
            gns3_url=args.gns3_server.rstrip("/"),
            data_dir=data_dir,
            llm=llm,
            database=args.database,
            idle_close_s=args.idle_close * 60.0,
            trainer_group=args.trainer_group,
            console_logins=logins,
        )
    )
    logging.basicConfig(level=logging.INFO)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ssl_certfile=str(args.tls_cert) if args.tls_cert else None,
        ssl_keyfile=str(args.tls_key) if args.tls_key else None,
        log_level="info",
    )
    return 0
