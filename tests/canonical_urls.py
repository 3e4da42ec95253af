"""A local stand-in for the inputs' canonical URLs, so a test can run the workflow as a machine that reaches them; and
a network that answers nothing (``NoNetwork``), as a cluster's compute node has it.

The workflow is run with no mirror (``BOOQA_MIRROR`` unset) and with ``https_proxy`` pointing at this server, exactly
as on a machine behind a proxy: for each ``CONNECT host:443`` it answers the TLS handshake itself, with a certificate
for that host signed by a test CA that the run trusts through ``SSL_CERT_FILE``, and then serves each GET of
``https://host/path`` with the bytes of the input table's file at that URL, taken from the mirror. Nothing in the
workflow knows about it: the download code takes its standard path (urllib, the environment's proxy, certificate
verification). Every request is recorded: what was served, and any URL the input table does not list (refused, 404).
"""

from __future__ import annotations

import os
import shutil
import socketserver
import ssl
import subprocess
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import trustme

from directional_inference.resources.fetch import find_in_mirrors
from directional_inference.resources.inputs import MIRROR_ENV, ExternalInput, Mirror, input_table

PROXY_VARIABLES = ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY")
NO_PROXY_VARIABLES = ("no_proxy", "NO_PROXY")


class _Origin(BaseHTTPRequestHandler):
    """One host's HTTPS requests inside a CONNECT tunnel: the file at the URL, a byte range of it, or 404."""

    protocol_version = "HTTP/1.1"
    host = ""
    stand_in: CanonicalURLs

    def do_GET(self) -> None:  # noqa: N802 (the http.server name)
        url = f"https://{self.host}{self.path}"
        source = self.stand_in.source_of(url)
        if source is None:
            self.stand_in.record(self.stand_in.refused, url)
            self.send_error(404, "not a URL of the input table")
            return
        size = source.stat().st_size
        start = 0
        if (wanted := self.headers.get("Range", "")).startswith("bytes=") and wanted.endswith("-"):
            start = min(int(wanted[6:-1] or 0), size)
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
        self.send_header("Content-Length", str(size - start))
        self.end_headers()
        with open(source, "rb") as handle:
            handle.seek(start)
            shutil.copyfileobj(handle, self.wfile)
        self.stand_in.record(self.stand_in.served, url)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the http.server signature)
        pass


class _Proxy(BaseHTTPRequestHandler):
    """The proxy: a CONNECT becomes a TLS connection to the stand-in for that host."""

    stand_in: CanonicalURLs

    def do_CONNECT(self) -> None:  # noqa: N802
        host = self.path.rpartition(":")[0]
        self.send_response(200, "Connection established")
        self.end_headers()
        tls = self.stand_in.context_for(host).wrap_socket(self.connection, server_side=True)
        try:
            type("Origin", (_Origin,), {"host": host, "stand_in": self.stand_in})(tls, self.client_address, self.server)
        finally:
            tls.close()
        self.close_connection = True

    def do_GET(self) -> None:  # noqa: N802 (plain http:// through the proxy; the input table has none today)
        self.stand_in.record(self.stand_in.refused, self.path)
        self.send_error(404, "plain HTTP is not served")

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


def behind_proxy(base: dict[str, str], port: int) -> dict[str, str]:
    """``base`` as a machine whose every request goes through the proxy at ``port`` of this host: no mirror, no host
    exempt from the proxy."""
    env = {name: value for name, value in base.items() if name != MIRROR_ENV and name not in NO_PROXY_VARIABLES}
    return env | {name: f"http://127.0.0.1:{port}" for name in PROXY_VARIABLES}


class _LocalServer:
    """A server on a free port of this host, serving from a thread of this process while in its ``with`` block, and
    recording requests under a lock."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._lock = threading.Lock()
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True

    def record(self, where: list[str], request: str) -> None:
        with self._lock:
            where.append(request)

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class CanonicalURLs(_LocalServer):
    """Start with ``with CanonicalURLs(mirrors, directory) as urls:``; run the workflow with ``urls.environment()``."""

    def __init__(self, mirrors: Sequence[Mirror], directory: Path) -> None:
        self.mirrors = list(mirrors)
        self.items: dict[str, ExternalInput] = {item.url: item for item in input_table()}
        self.ca = trustme.CA()
        self.ca_file = Path(directory) / "stand-in-ca.pem"
        self.ca.cert_pem.write_to_path(str(self.ca_file))
        self.served: list[str] = []
        self.refused: list[str] = []
        self._contexts: dict[str, ssl.SSLContext] = {}
        super().__init__(type("Proxy", (_Proxy,), {"stand_in": self}))

    def source_of(self, url: str) -> Path | None:
        item = self.items.get(url)
        return None if item is None else find_in_mirrors(item, self.mirrors)

    def context_for(self, host: str) -> ssl.SSLContext:
        with self._lock:
            if host not in self._contexts:
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                self.ca.issue_cert(host).configure_cert(context)
                self._contexts[host] = context
            return self._contexts[host]

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) as a machine that reaches the URLs has it: no mirror, the
        proxy set, the stand-in's CA trusted."""
        env = behind_proxy(os.environ if base is None else base, self.server.server_address[1])
        env["SSL_CERT_FILE"] = str(self.ca_file)
        return env


class _Refusal(BaseHTTPRequestHandler):
    """Any request to the proxy (a CONNECT for HTTPS, a plain HTTP method): recorded, then refused."""

    stand_in: NoNetwork

    def refuse(self) -> None:
        self.stand_in.record(self.stand_in.asked, f"{self.command} {self.path}")
        self.send_error(403, "no network here")

    do_CONNECT = do_GET = do_HEAD = do_POST = do_PUT = refuse  # noqa: N815 (the http.server names)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


class NoNetwork(_LocalServer):
    """A network that answers nothing, as a cluster's compute node has it. A command run through ``isolated`` runs in a
    network namespace of its own (``unshare --net``), which has no interface but a loopback that is down: no socket of
    any process, Python's or a library's own, reaches anything. Where this machine cannot make one (``isolation``
    says which), only the proxy holds: every proxy variable points at a proxy that refuses each request and records
    it (``asked``). No mirror either way. The environment keeps the suite's offline switches (HF_HUB_OFFLINE,
    TRANSFORMERS_OFFLINE): transformers writes the switch into a tokenizer it saves (``local_files_only``), so a run
    without them would not make the same bytes. Start with ``with NoNetwork() as network:``; run
    ``network.isolated(command)`` with ``network.environment()``."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        super().__init__(type("Refusal", (_Refusal,), {"stand_in": self}))
        self._unshare = ["unshare", "--net", *([] if os.geteuid() == 0 else ["--map-root-user"])]
        try:
            namespaces = subprocess.run([*self._unshare, "true"], capture_output=True, timeout=60).returncode == 0
        except OSError:  # no unshare
            namespaces = False
        self.isolation = "network namespace" if namespaces else "proxy only"

    def isolated(self, command: Sequence[str]) -> list[str]:
        """``command`` in a network namespace of its own, where this machine can make one."""
        return [*self._unshare, *command] if self.isolation == "network namespace" else list(command)

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        return behind_proxy(os.environ if base is None else base, self.server.server_address[1])
