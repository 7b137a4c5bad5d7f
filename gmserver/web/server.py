"""uvicorn serving the pages: in a thread of the daemon's process (`start_in_thread`) or in the
foreground (`serve`, `gmserver web`)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import uvicorn

from gmserver.config import Config
from gmserver.paths import TEMPLATES_DIR
from gmserver.services.base.context import Services
from gmserver.web.app import create_app

log = logging.getLogger(__name__)


def pages_app(config: Config, services: Services) -> Any:
    """The pages' application as `[web]` configures it."""
    return create_app(services, config.web, templates_dir=TEMPLATES_DIR, gm_name=config.gm_name)


def web_thread(config: Config, services: Services) -> "WebThread":
    host, port = config.web.host_and_port
    return WebThread(pages_app(config, services), host, port)


def _server(app: Any, host: str, port: int) -> uvicorn.Server:
    # the reverse proxy of a public host (docs/web.md) is on the same machine: its X-Forwarded-For
    # names the client the rate limit counts; nobody else's is believed
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                            proxy_headers=True, forwarded_allow_ips="127.0.0.1", server_header=False,
                            lifespan="off")
    return uvicorn.Server(config)


def serve(app: Any, host: str, port: int) -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM)."""
    _server(app, host, port).run()


class WebThread:
    """The pages served beside the mail side, in a thread of the daemon's process."""

    def __init__(self, app: Any, host: str, port: int) -> None:
        self.server = _server(app, host, port)
        # uvicorn installs signal handlers only in the main thread; the daemon keeps its own
        self.thread = threading.Thread(target=self._run, name="gmserver-web", daemon=True)

    def _run(self) -> None:
        try:
            self.server.run()
        except SystemExit:  # uvicorn exits when it cannot bind (and logs why): `start` says so to the daemon
            pass

    def start(self, timeout: float = 10.0) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web pages' server did not start (is its port taken?)")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
