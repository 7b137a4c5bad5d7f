"""The web pages served for real (uvicorn on 127.0.0.1, a free port) over a test database, and a
plain HTTP client for them (urllib: what a browser sends, nothing more)."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import Message

from gmserver.config import WebConfig
from gmserver.paths import TEMPLATES_DIR
from gmserver.services.base.context import Services
from gmserver.web.app import create_app
from gmserver.web.server import WebThread
from tests.support.dovecot import free_port


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


@contextmanager
def serving(services: Services, web: WebConfig | None = None) -> Iterator[str]:
    """The pages of `services`' database served while the block runs (on `web`'s listen address,
    or a free port); yields the base URL."""
    web = web or WebConfig(listen=f"127.0.0.1:{free_port()}")
    _, port = web.host_and_port
    app = create_app(services, web, templates_dir=TEMPLATES_DIR, gm_name="Test GM")
    thread = WebThread(app, "127.0.0.1", port)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        thread.stop()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def get(url: str, headers: dict[str, str] | None = None, method: str = "GET") -> Answer:
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with _OPENER.open(request, timeout=30) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.headers, error.read())


def get_when_up(url: str, timeout: float = 30.0) -> Answer:
    """`get`, once the server that was just started listens (connections refused until then)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return get(url)
        except urllib.error.URLError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)
