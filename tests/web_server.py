"""A real `reasoner serve` app on a free loopback port, in a thread, for the web tests."""
from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterator

import uvicorn

from reasoner.web.app import HEADER_SECONDS, create_app, server_config


@contextmanager
def running_server(**options) -> Iterator[str]:
    """Start the app with `options` (create_app's), yield its base URL, stop it."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    header_seconds = options.pop("header_seconds", HEADER_SECONDS)
    server = uvicorn.Server(server_config(create_app(**options), "127.0.0.1", port, header_seconds, log_level="warning"))
    thread = threading.Thread(target=server.run, name="reasoner-web-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)
