"""A real nginx (Debian's package) in front of service replicas, on loopback, with the
repository's own site file (packaging/nginx/gns3-copilot.conf).

The site file is used as it is, except what names this machine: its ``listen`` lines become one
loopback port, its upstream ``server`` lines the test's replicas, its certificate paths a
certificate the test made (`make_test_ca`: a test CA and a server certificate for 127.0.0.1 it
signed). nginx runs in the foreground with its own prefix, pid file, logs and temporary folders in
a throwaway folder; never as root (as root it runs as ``nobody``). The access log names the
replica (``$upstream_addr``) that answered each request. Stopped by the PID it wrote.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tests.helpers.gns3_server import free_port

SITE_CONF = Path(__file__).resolve().parents[2] / "packaging" / "nginx" / "gns3-copilot.conf"
NGINX = "/usr/sbin/nginx"


@dataclass
class LocalCa:
    """A CA the system does not trust, and a server certificate it signed for 127.0.0.1."""

    ca_pem: Path
    cert_pem: Path
    key_pem: Path


def _key_pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


_CA_USAGE = x509.KeyUsage(
    digital_signature=True,
    content_commitment=False,
    key_encipherment=False,
    data_encipherment=False,
    key_agreement=False,
    key_cert_sign=True,
    crl_sign=True,
    encipher_only=False,
    decipher_only=False,
)


def make_test_ca(folder: Path) -> LocalCa:
    """Write ``ca.pem``, ``server.pem`` and ``server.key`` in ``folder``."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "GNS3 Copilot test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_CA_USAGE, critical=True)
        .add_extension(
            x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    folder.mkdir(parents=True, exist_ok=True)
    made = LocalCa(folder / "ca.pem", folder / "server.pem", folder / "server.key")
    made.ca_pem.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    made.cert_pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    made.key_pem.write_bytes(_key_pem(key))
    return made


def site_for(port: int, upstreams: list[str], cert: Path, key: Path) -> str:
    """The repository's site file, naming this machine's port, replicas and certificate."""
    text = SITE_CONF.read_text()
    # the plain-HTTP redirect server is a deployment's; the test listens on one TLS port
    text = re.sub(r"server \{\s*listen 80;.*?\n\}\n", "", text, count=1, flags=re.S)
    text = re.sub(r"listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;", text)
    servers = "".join(f"    server {u} max_fails=1 fail_timeout=5s;\n" for u in upstreams)
    text, count = re.subn(r"(    server 127\.0\.0\.1:\d+ [^\n]*\n)+", servers, text, count=1)
    assert count == 1, "the site file has no upstream server lines"
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    return text


def client_max_body_size() -> int:
    """The site file's ``client_max_body_size``, in bytes."""
    found = re.search(r"client_max_body_size\s+(\d+)([kKmM]?);", SITE_CONF.read_text())
    assert found is not None
    scale = {"": 1, "k": 1024, "m": 1024 * 1024}[found.group(2).lower()]
    return int(found.group(1)) * scale


_MAIN = """daemon off;
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log info;
events {{ worker_connections 1024; }}
http {{
    log_format upstreams '$request_method $uri $status mark=$http_x_test_mark $upstream_addr';
    access_log {root}/access.log upstreams;
    client_body_temp_path {root}/tmp/body;
    proxy_temp_path {root}/tmp/proxy;
    fastcgi_temp_path {root}/tmp/fastcgi;
    uwsgi_temp_path {root}/tmp/uwsgi;
    scgi_temp_path {root}/tmp/scgi;
    include {root}/site.conf;
}}
"""


@dataclass
class Nginx:
    """A running nginx: ``url`` is ``https://127.0.0.1:<port>``."""

    root: Path
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def upstream_of(self, mark: str, timeout: float = 15.0) -> str:
        """The replica that answered the request sent with header ``X-Test-Mark: <mark>``
        ("-" when nginx answered it itself). nginx writes a request's line when the request
        ends, which may be after the client has its answer: wait for the line."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.access_log():
                if f" mark={mark} " in line:
                    return line.rsplit(" ", 1)[1]
            if time.monotonic() > deadline:
                raise AssertionError(f"no access log line for request {mark} in {timeout:.0f} s")
            time.sleep(0.05)

    def access_log(self) -> list[str]:
        path = self.root / "access.log"
        return path.read_text().splitlines() if path.exists() else []

    def master_pid(self) -> int | None:
        try:
            return int((self.root / "nginx.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def stop(self) -> None:
        """Graceful quit (SIGQUIT) of the master nginx wrote, SIGKILL if it does not end."""
        pid = self.master_pid()
        if pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGQUIT)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            if pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.root, ignore_errors=True)


def start_nginx(upstreams: list[str], ca: LocalCa, timeout_s: float = 30.0) -> Nginx:
    """nginx with the site file in front of ``upstreams`` (``127.0.0.1:port``)."""
    if not Path(NGINX).exists():
        raise RuntimeError("nginx is not installed (Debian: nginx)")
    root = Path(tempfile.mkdtemp(prefix="copilot-nginx-"))
    (root / "tmp").mkdir()
    shutil.copy(ca.cert_pem, root / "server.pem")
    shutil.copy(ca.key_pem, root / "server.key")
    port = free_port()
    (root / "site.conf").write_text(
        site_for(port, upstreams, root / "server.pem", root / "server.key")
    )
    (root / "nginx.conf").write_text(_MAIN.format(root=root))
    prefix: list[str] = []
    if os.geteuid() == 0:  # never as root: the whole run as nobody, its files made its own
        user = pwd.getpwnam("nobody")
        for path in [root, *root.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "nobody", "--"]
    process = subprocess.Popen(
        [*prefix, NGINX, "-p", str(root), "-e", str(root / "error.log"),
         "-c", str(root / "nginx.conf")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    made = Nginx(root, port, process)
    deadline = time.monotonic() + timeout_s
    while True:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            log = (root / "error.log").read_text(errors="replace")[-1500:]
            shutil.rmtree(root, ignore_errors=True)
            raise RuntimeError(f"nginx did not start: {err[-1500:]}\n{log}")
        with (
            contextlib.suppress(OSError),
            socket.create_connection(("127.0.0.1", port), timeout=1),
        ):
            return made
        if time.monotonic() > deadline:
            made.stop()
            raise RuntimeError("nginx did not listen in time")
        time.sleep(0.05)
