"""Refuse requests that do not come from the page itself.

A page served on localhost can be reached by any other site open in the same browser: a
hostile page may post a form to ``http://127.0.0.1:8765`` (cross-site request) or make its
own domain name resolve to 127.0.0.1 (DNS rebinding). So every request must name this server
in ``Host`` (an IP address, ``localhost`` or this machine's name, and the served port: a
rebinding domain is refused), and a request that carries an ``Origin`` must come from that
same host. A browser's ``Sec-Fetch-Site: cross-site`` is refused except for following a link
to a page (a top-level navigation, which cannot read the answer).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable, Callable], Awaitable[None]]


def host_names(bind_host: str) -> frozenset[str]:
    """Names (besides IP addresses) that ``Host`` may give for a server bound to
    ``bind_host``."""
    names = {"localhost", bind_host.lower().strip("[]")}
    try:
        names.add(socket.gethostname().lower())
    except OSError:  # pragma: no cover - a machine without a name
        pass
    return frozenset(names)


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def refusal(headers: dict[str, str], method: str, path: str, names: frozenset[str],
            port: int) -> str | None:
    """Why the request is refused (one line), or ``None`` when it may go on."""
    host = headers.get("host", "")
    parts = urlsplit(f"//{host}")
    try:
        host_port = parts.port or 80  # a browser leaves out the default port
    except ValueError:
        host_port = -1
    name = (parts.hostname or "").lower()
    if not host or host_port != port or not (name in names or _is_ip(name)):
        return (f"refused: this page answers only at its own address (Host {host[:80]!r} is "
                f"not this server, port {port}); open http://127.0.0.1:{port}/")
    origin = headers.get("origin")
    if origin is not None and origin != f"http://{host}":
        return (f"refused: a request from another site (Origin {origin[:80]!r}) may not use "
                "this page")
    site = headers.get("sec-fetch-site", "")
    navigation = method == "GET" and headers.get("sec-fetch-mode") == "navigate" \
        and not path.startswith("/api/")
    if site in ("cross-site", "same-site") and not navigation:
        return "refused: a request from another site may not use this page"
    return None


class OriginGuard:
    """ASGI middleware answering 403 with one line for every refused request."""

    def __init__(self, app: ASGIApp, *, port: int, bind_host: str = "127.0.0.1") -> None:
        self.app = app
        self.port = port
        self.names = host_names(bind_host)

    async def __call__(self, scope: Scope, receive: Callable, send: Callable) -> None:
        if scope["type"] == "websocket":  # the page opens none
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":  # lifespan
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        why = refusal(headers, scope.get("method", "GET"), scope.get("path", ""),
                      self.names, self.port)
        if why is None:
            await self.app(scope, receive, send)
            return
        body = why.encode("utf-8")
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
