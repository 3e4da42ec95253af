"""A local stand-in for the inputs' canonical URLs, so a test can run the workflow as a machine that reaches them.

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
import threading
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import trustme

from directional_inference.resources.fetch import find_in_mirrors
from directional_inference.resources.inputs import MIRROR_ENV, ExternalInput, Mirror, input_table

PROXY_VARIABLES = ("https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY")


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

    def do_GET(self) -> None:  # noqa: N802: plain http:// through the proxy (the input table has none today)
        self.stand_in.record(self.stand_in.refused, self.path)
        self.send_error(404, "plain HTTP is not served")

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass


class CanonicalURLs:
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
        self._lock = threading.Lock()
        handler = type("Proxy", (_Proxy,), {"stand_in": self})
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True

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

    def record(self, where: list[str], url: str) -> None:
        with self._lock:
            where.append(url)

    def environment(self, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default: this process's environment) as a machine that reaches the URLs has it: no mirror, the
        proxy set, the stand-in's CA trusted."""
        env = dict(os.environ if base is None else base)
        env.pop(MIRROR_ENV, None)
        for name in ("no_proxy", "NO_PROXY"):
            env.pop(name, None)
        address = f"http://127.0.0.1:{self.server.server_address[1]}"
        env.update({name: address for name in PROXY_VARIABLES})
        env["SSL_CERT_FILE"] = str(self.ca_file)
        return env

    def __enter__(self) -> CanonicalURLs:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
