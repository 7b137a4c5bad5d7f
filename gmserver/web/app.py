"""The pages: a thin Starlette adapter over services/features/pages.py, rendered from
templates/web/ (Jinja, every variable escaped) with the report map's code.

Routes (the contract mail links and the tests use):
  /games/NAME                      the game now (public, unless the game is private: `game create
                                   --private`, `game set NAME pages private`, or [web] public = false)
  /games/NAME/phases/S1901M        a past phase, as its turn report gave it
  /games/NAME/p/TOKEN              a player's own page (their private link)
  /gm                              the GM's page (HTTP Basic, the password of [web] gm_password_hash)
and each page's map.png (and a past phase's chart.png). Anything else, a wrong or an old token
included, answers 404.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from gmserver import centrechart, mapboard, mapimage
from gmserver.config import WebConfig
from gmserver.rules.game_names import name_problem
from gmserver.services.base.context import Services
from gmserver.services.base.page_tokens import game_link, page_link, pages_public
from gmserver.services.features import pages
from gmserver.web.auth import basic_password, password_matches

# No script, style or image from anywhere but here; no inline script or style at all; no framing;
# no form posts. Player text (press, names) is escaped by Jinja, and this is the second wall.
CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; base-uri 'none'; "
       "form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # a player's link carries their token: it must never leave in a Referer
    (b"referrer-policy", b"no-referrer"),
]
NOW_CHANGES = "no-cache"  # the game now: always revalidated (its ETag says whether it changed)
PRIVATE = "private, no-store"  # a player's or the GM's page: kept by no cache
IMMUTABLE = "public, max-age=31536000, immutable"  # a past phase whose report nothing can replace
# the latest adjudicated phase may still be rolled back and adjudicated again (000 VIII(1)): an hour
LATEST = "public, max-age=3600"

PHASE = re.compile(r"[SFW][0-9]{4}[MRA]")
TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")
STATIC = {"site.css": "text/css", "local-time.js": "text/javascript"}


class RateLimit:
    """At most `per_minute` requests a minute from one client address; past it 429. Behind a
    reverse proxy the client is the proxy unless uvicorn is told to trust its X-Forwarded-For."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_minute, self.clock = per_minute, clock
        self.seen: dict[str, deque[float]] = {}

    def allow(self, client: str) -> bool:
        now = self.clock()
        times = self.seen.setdefault(client, deque())
        while times and times[0] <= now - 60:
            times.popleft()
        if len(self.seen) > 10_000:  # forget the clients idle for a minute: many addresses cannot fill memory
            for idle in [c for c, t in self.seen.items() if c != client and (not t or t[-1] <= now - 60)]:
                del self.seen[idle]
        if len(times) >= self.per_minute:
            return False
        times.append(now)
        return True


class Guard:
    """ASGI middleware: the rate limit, then the security headers on every answer."""

    def __init__(self, app: Any, limit: RateLimit) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                       send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        client = (scope.get("client") or ("?", 0))[0]
        if not self.limit.allow(client):
            response = PlainTextResponse("Too many requests: wait a minute and load the page again.", 429,
                                         headers={"Retry-After": "60"})
            await response(scope, receive, with_headers)
            return
        await self.app(scope, receive, with_headers)


class Images:
    """The maps and charts drawn, by what they show: a phase's never changes, the game's changes
    with its version. A few hundred PNGs of about 55 KiB at most."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.cache: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str, draw: Callable[[], bytes]) -> bytes:
        if key in self.cache:
            self.cache.move_to_end(key)
            return self.cache[key]
        image = self.cache[key] = draw()
        if len(self.cache) > self.size:
            self.cache.popitem(last=False)
        return image


def _environment(templates_dir: Path) -> jinja2.Environment:
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir / "web")),
        autoescape=True,  # every page is HTML, and player text (press, names) is shown as text
        undefined=jinja2.StrictUndefined,
        trim_blocks=True, lstrip_blocks=True,
    )
    environment.globals["colours"] = mapboard.power_colours
    return environment


def _is_name(name: str) -> bool:
    return name_problem(name) is None


def _not_found() -> Response:
    return PlainTextResponse("Not found.", 404, headers={"Cache-Control": "no-store"})


def create_app(services: Services, web: WebConfig, *, templates_dir: Path, gm_name: str = "Diplomacy GM",
               clock: Callable[[], float] = time.monotonic) -> Any:
    """The ASGI application of the pages (Starlette, wrapped in the rate limit and security headers)."""
    sessions, geography = services.sessions, services.geography
    environment = _environment(templates_dir)
    images = Images()
    gm_checked: set[str] = set()  # the Authorization headers already checked (PBKDF2 is slow on purpose)

    def render(template: str, cache: str, etag: str | None = None, status: int = 200, **context: Any) -> Response:
        html = environment.get_template(template).render(gm_name=gm_name, **context)
        headers = {"Cache-Control": cache}
        if etag:
            headers["ETag"] = f'"{etag}"'
        return HTMLResponse(html, status, headers=headers)

    def fresh(request: Request, etag: str) -> bool:
        return request.headers.get("if-none-match") == f'"{etag}"'

    def is_gm(request: Request) -> bool:
        authorization = request.headers.get("authorization")
        if not web.gm_password_hash or not authorization:
            return False
        key = hashlib.sha256(authorization.encode()).hexdigest()
        if key in gm_checked:
            return True
        password = basic_password(authorization)
        if password is None or not password_matches(password, web.gm_password_hash):
            return False
        gm_checked.add(key)
        return True

    def public(setting: bool | None) -> bool:
        return pages_public(setting, web.public)

    def may_see(request: Request, setting: bool | None) -> bool:
        # a private game shows nothing without a player's link or the GM's password
        return public(setting) or is_gm(request)

    def png(data: bytes, cache: str) -> Response:
        return Response(data, media_type="image/png", headers={"Cache-Control": cache})

    async def game(request: Request) -> Response:
        name = request.path_params["name"]
        page = pages.game_page(sessions, name) if _is_name(name) else None
        if page is None or not may_see(request, page.public):
            return _not_found()
        cache = NOW_CHANGES if public(page.public) else PRIVATE
        if fresh(request, page.version):
            return Response(status_code=304, headers={"ETag": f'"{page.version}"', "Cache-Control": cache})
        return render("game.html.j2", cache, page.version, game=page, base=game_link("", name), player=None)

    async def game_map(request: Request) -> Response:
        name = request.path_params["name"]
        page = pages.game_page(sessions, name) if _is_name(name) else None
        if page is None or not may_see(request, page.public):
            return _not_found()
        position = pages.current_position(sessions, name)
        if position is None:
            return _not_found()
        return png(images.get(f"now:{name}:{page.version}", lambda: mapimage.position_png(position)),
                   NOW_CHANGES if public(page.public) else PRIVATE)

    def phase_of(request: Request) -> pages.PhasePage | None:
        name, phase = request.path_params["name"], request.path_params["phase"]
        if not (_is_name(name) and PHASE.fullmatch(phase)):
            return None
        return pages.phase_page(sessions, name, phase)

    def phase_cache(page: pages.PhasePage) -> str:
        if not public(page.public):
            return PRIVATE
        return LATEST if page.latest else IMMUTABLE

    def token_ok(request: Request, page: pages.PhasePage) -> bool:
        """A past phase: by a player's present link, or without one where the game may be seen."""
        token = request.path_params.get("token")
        if token is None:
            return may_see(request, page.public)
        name = request.path_params["name"]
        return bool(TOKEN.fullmatch(token) and _is_name(name)
                    and pages.power_of_link(sessions, name, token) is not None)

    async def phase(request: Request) -> Response:
        page = phase_of(request)
        if page is None or not token_ok(request, page):
            return _not_found()
        token = request.path_params.get("token")
        base = page_link("", page.game_name, token) if token else game_link("", page.game_name)
        return render("phase.html.j2", PRIVATE if token else phase_cache(page), page.key.replace(":", "-"),
                      page=page, base=base)

    async def phase_image(request: Request) -> Response:
        page = phase_of(request)
        if page is None or not token_ok(request, page):
            return _not_found()
        cache = PRIVATE if request.path_params.get("token") else phase_cache(page)
        if request.path_params["image"] == "map.png":
            return png(images.get(f"phase:{page.key}", lambda: mapimage.map_png(page.outcome)), cache)
        if request.path_params["image"] == "chart.png" and len(page.history[0]) > 1:
            return png(images.get(f"chart:{page.key}", lambda: centrechart.centre_chart(*page.history)), cache)
        return _not_found()

    async def player(request: Request) -> Response:
        name, token = request.path_params["name"], request.path_params["token"]
        if not (_is_name(name) and TOKEN.fullmatch(token)):
            return _not_found()
        page = pages.player_page(sessions, name, token, geography)
        if page is None:
            return _not_found()
        return render("player.html.j2", PRIVATE, game=page.game, own=page, base=page_link("", name, token),
                      player=page)

    async def player_map(request: Request) -> Response:
        name, token = request.path_params["name"], request.path_params["token"]
        if not (_is_name(name) and TOKEN.fullmatch(token)):
            return _not_found()
        planned = pages.planned_outcome(sessions, name, token)
        if planned is None:
            return _not_found()
        return png(mapimage.planned_png(planned), PRIVATE)

    async def gm(request: Request) -> Response:
        if not web.gm_password_hash:
            return PlainTextResponse("The GM page is off: set [web] gm_password_hash in the configuration.", 403,
                                     headers={"Cache-Control": "no-store"})
        if not is_gm(request):
            return PlainTextResponse("The GM's password is needed for this page.", 401,
                                     headers={"WWW-Authenticate": 'Basic realm="gmserver GM", charset="UTF-8"',
                                              "Cache-Control": "no-store"})
        return render("gm.html.j2", PRIVATE, page=pages.gm_page(sessions),
                      now=datetime.now(UTC))

    async def static(request: Request) -> Response:
        # a fixed set of files: no path from the request ever reaches the file system
        name = request.path_params["file"]
        if name not in STATIC:
            return _not_found()
        body = (templates_dir / "web" / "static" / name).read_bytes()
        return Response(body, media_type=STATIC[name], headers={"Cache-Control": "public, max-age=3600"})

    routes = [
        Route("/games/{name}", game),
        Route("/games/{name}/map.png", game_map),
        Route("/games/{name}/phases/{phase}", phase),
        Route("/games/{name}/phases/{phase}/{image}", phase_image),
        Route("/games/{name}/p/{token}", player),
        Route("/games/{name}/p/{token}/map.png", player_map),
        Route("/games/{name}/p/{token}/phases/{phase}", phase),
        Route("/games/{name}/p/{token}/phases/{phase}/{image}", phase_image),
        Route("/gm", gm),
        Route("/static/{file}", static),
    ]
    app = Starlette(routes=routes)
    app.add_exception_handler(404, lambda request, exc: _not_found())
    app.add_exception_handler(405, lambda request, exc: PlainTextResponse("Only GET: these pages are read-only.", 405))
    return Guard(app, RateLimit(web.requests_per_minute, clock))
