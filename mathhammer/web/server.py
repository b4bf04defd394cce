"""Start the page's server: bind the socket first (a busy port is one line, not a traceback),
say where the page is, warm every engine's kernels in the background, run uvicorn."""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
import webbrowser

from mathhammer.errors import OptionError


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``, or a one-line :class:`OptionError`."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise OptionError(f"--host '{host}': not an address of this machine ({exc.strerror})") \
            from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose "
                          "another --port") from None
    sock.listen(64)
    return sock


def warm_up() -> None:
    """Compile (or load from the cache) the kernels of every engine the page offers (40k,
    the Battle page's scenario engine, Warmachine, Dust; the 40k first) before the first
    question: on a cold cache a Battle question otherwise waited seconds at "0 of 4"
    (benchmarks/RESULTS.md)."""
    from mathhammer.core.progress import quiet
    from mathhammer.precompile import ENGINES, warmup

    with quiet():
        warmup(list(ENGINES))


def preload() -> None:
    """Import what every answer uses (pandas for tables, the games' parsers, matplotlib for
    charts) while the kernels compile on the other core."""
    import pandas  # noqa: F401

    from mathhammer import charts  # noqa: F401
    from mathhammer.wh40k import api, comparisons, targets  # noqa: F401


def data_checkout(data: str | None) -> str | None:
    """The BSData checkout the page reads ``@Name`` from: ``--data``, else
    ``$MATHHAMMER_DATA``, else None; a folder that is not one is refused in one line."""
    import os

    from mathhammer.wh40k.bsdata.files import DATA_VARIABLE, data_folder

    if data is None and not os.environ.get(DATA_VARIABLE):
        return None
    return str(data_folder(data).resolve())


def serve(host: str, port: int, *, open_browser: bool = False, warm: bool = True,
          data: str | None = None) -> int:
    """Serve the page until Ctrl-C; return the exit status. ``data``: the BSData checkout
    ``@Name`` lines are read from (else ``$MATHHAMMER_DATA``)."""
    import uvicorn

    from mathhammer.web.app import create_app

    data = data_checkout(data)
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else shown}:{port}/"
    print(f"mathhammer: serving {url} (Ctrl-C to stop)", file=sys.stderr, flush=True)
    if not is_loopback(host):
        print(f"mathhammer: warning: listening on {host}: the page is reachable from other "
              "machines on the network, with no login", file=sys.stderr, flush=True)
    app = create_app(port=port, bind_host=host, data=data)
    if data is not None:
        print(f"mathhammer: units by name from {data}", file=sys.stderr, flush=True)
        threading.Thread(target=app.app.state.mh.units.warm, name="mathhammer-bsdata",
                         daemon=True).start()
    if warm:
        threading.Thread(target=warm_up, name="mathhammer-warmup", daemon=True).start()
        threading.Thread(target=preload, name="mathhammer-preload", daemon=True).start()
    # a browser's idle keep-alive connection must not hold up Ctrl-C or a SIGTERM
    config = uvicorn.Config(app, log_level="warning",
                            access_log=False, lifespan="off", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server.run(sockets=[sock])
    return 0
