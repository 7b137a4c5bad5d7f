"""`gmserver demo`: the real daemon on the embedded defaults, with seven bots as players.

The bots are ordinary mail clients: they read the game's state, pick random legal orders and
mail them to the daemon's SMTP listener with a subject the house rules accept. Reports land in
a local Maildir. Nothing here is special-cased in the daemon.
"""

from __future__ import annotations

import logging
import random
import signal
import smtplib
import threading
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from gmserver import engine
from gmserver.config import load_config
from gmserver.daemon import Daemon, utcnow
from gmserver.db.migrate import upgrade
from gmserver.mail.compose import new_message_id
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import Position, describe_phase, unit_location
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base.page_tokens import game_link, page_link
from gmserver.services.features import views
from gmserver.services.features.pages import issue_page_token
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, open_game, postpone_deadline
from gmserver.web.auth import hash_password

log = logging.getLogger("gmserver.demo")

GM_ADDRESS = "gm@demo.gmserver.invalid"

DEMO_CONFIG = """\
# Written by `gmserver demo`: the embedded defaults, with short loop intervals.
[database]
url = "sqlite:///{db}"

[gm]
address = "{gm}"
name = "Demo GM"

[inbound]
mode = "smtp"

[inbound.smtp]
host = "127.0.0.1"
port = {port}

[outbound]
mode = "maildir"
interval_seconds = 1

[outbound.maildir]
path = "{maildir}"

[daemon]
sweep_interval_seconds = 1

[web]
listen = "127.0.0.1:{web_port}"
base_url = "http://127.0.0.1:{web_port}"
gm_password_hash = "{gm_password_hash}"
"""

# the demo's GM page password (the demo runs on 127.0.0.1 only)
DEMO_GM_PASSWORD = "demo"


def bot_address(power: str) -> str:
    return f"{power.lower()}@bots.gmserver.invalid"


def bot_orders(position: Position, legal: dict[str, tuple[str, ...]], power: str, homes: tuple[str, ...],
               rng: random.Random) -> list[str]:
    """Random legal orders for `power`, preferring moves so that the board changes."""
    kind = position.phase_type
    legal = {**legal, **{loc: legal[loc.split("/")[0]] for units in (position.units, position.dislodged)
                         for power_units in units.values() for loc in map(unit_location, power_units)
                         if "/" in loc and loc.split("/")[0] in legal}}  # the engine keys coasts by province
    if kind == "M":
        orders = []
        for unit in position.units.get(power, ()):
            options = legal.get(unit_location(unit), ())
            moves = [o for o in options if Order.parse(o).action == "move"]
            pool = moves if moves and rng.random() < 0.7 else options
            if pool:
                orders.append(rng.choice(pool))
        return orders
    if kind == "R":
        return [rng.choice(legal[unit_location(u)]) for u in position.dislodged.get(power, ())
                if legal.get(unit_location(u))]
    if kind == "A":
        due = position.adjustments.get(power, 0)
        if due > 0:
            sites = [loc for loc in legal if loc.split("/")[0] in homes
                     and any(Order.parse(o).action == "build" for o in legal[loc])]
            rng.shuffle(sites)
            chosen: list[str] = []
            for loc in sites:
                if len(chosen) == due:
                    break
                if all(Order.parse(c).province != loc.split("/")[0] for c in chosen):
                    chosen.append(rng.choice([o for o in legal[loc] if Order.parse(o).action == "build"]))
            return chosen
        units = list(position.units.get(power, ()))
        rng.shuffle(units)
        return [str(Order("remove", Unit.parse(unit))) for unit in units[: -due]]
    return []


class Bots(threading.Thread):
    """Seven players who answer every new phase with an order email."""

    def __init__(self, daemon: Daemon, game_id: int, port: int, seed: int = 1) -> None:
        super().__init__(name="bots", daemon=True)
        self._daemon = daemon
        self._game_id = game_id
        self._port = port
        self._rng = random.Random(seed)
        self._stopping = threading.Event()  # not `_stop`: Thread uses that name itself
        self._last_phase: str | None = None

    def stop(self) -> None:
        """Stop and wait for a mail in flight, so that the listener is not stopped under it."""
        self._stopping.set()
        if self.is_alive():
            self.join(timeout=15)

    def run(self) -> None:
        homes = {power: engine.map_info().home_centres(power) for power in POWERS}
        while not self._stopping.wait(0.5):
            try:
                self._tick(homes)
            except Exception:
                if not self._stopping.is_set():  # mail cut off by Ctrl-C is no trouble
                    log.exception("bot trouble")

    def _tick(self, homes: dict[str, tuple[str, ...]]) -> None:
        game = views.game_progress(self._daemon.services.sessions, self._game_id)
        if game is None or game.status != "active":
            return
        name, phase, state, ordered = game.name, game.phase, game.state, game.ordered
        if phase == self._last_phase:
            return
        self._last_phase = phase
        position = engine.position_from_state(state)
        legal = engine.legal_orders(state)
        owing = [p for p in position.powers_to_order() if p not in ordered]
        for power in owing:
            if self._stopping.is_set():
                return
            orders = bot_orders(position, legal, power, homes[power], self._rng)
            self._mail(name, power, phase, orders)
        if owing:
            log.info("bots: %s mailed orders for %s", ", ".join(p.title() for p in owing), describe_phase(phase))

    def _mail(self, game_name: str, power: str, phase: str, orders: list[str]) -> None:
        message = EmailMessage()
        message["From"] = f"{power.title()} Bot <{bot_address(power)}>"
        message["To"] = GM_ADDRESS
        message["Subject"] = format_subject(template="standard", game_name=game_name, power=power, phase=phase,
                                            purpose="orders")
        message["Message-ID"] = new_message_id("bots.gmserver.invalid")
        message.set_content("Hello GM,\n\n" + "\n".join(orders or ["WAIVE"]) + "\n\nCheers,\n" + power.title())
        with smtplib.SMTP("127.0.0.1", self._port, timeout=10) as client:
            client.send_message(message)


def run_demo(directory: Path, *, port: int = 2525, turn_seconds: float = 15.0, turns: int = 0,
             web_port: int = 8080) -> int:
    directory.mkdir(parents=True, exist_ok=True)
    config_file = directory / "gmserver.toml"
    config_file.write_text(DEMO_CONFIG.format(db=(directory / "gmserver.db").resolve(), port=port,
                                              maildir=(directory / "maildir").resolve(), gm=GM_ADDRESS,
                                              web_port=web_port, gm_password_hash=hash_password(DEMO_GM_PASSWORD)))
    config = load_config(config_file)
    for noisy in ("gmserver.services.base.outbox", "gmserver.services.inbox.runner", "apscheduler"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    upgrade(config.database_url)
    daemon = Daemon(config)
    game_id, game_name = _demo_game(daemon, turn_seconds)
    bots = Bots(daemon, game_id, port)
    stop = threading.Event()
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    # counted from the game's record of adjudicated phases, not by watching the phase change: a
    # loaded host can run two adjudications between two looks
    progress = views.game_progress(daemon.services.sessions, game_id)
    assert progress is not None
    already, adjudicated = len(progress.adjudicated), 0
    france_page = page_link(config.web.base_url, game_name,
                            issue_page_token(daemon.services.sessions, game_name, "FRANCE", utcnow()))
    daemon.start()
    daemon.settle()
    bots.start()
    print(f"demo: players mail the GM at smtp://127.0.0.1:{port}; everything the GM sends lands in the "
          f"Maildir {directory / 'maildir'}.\n"
          f"demo: from another terminal: gmserver --config {config_file} game show {game_name}\n"
          f"demo: the game's pages: {game_link(config.web.base_url, game_name)} (France's own: "
          f"{france_page}"
          f"; every game for the GM: {config.web.base_url}/gm, password {DEMO_GM_PASSWORD})\n"
          f"demo: Ctrl-C stops it; run it again to carry on with the same game.", flush=True)
    try:
        while not stop.wait(0.5):
            game = views.game_progress(daemon.services.sessions, game_id)
            assert game is not None
            new = game.adjudicated[already + adjudicated:]
            if new:
                centres = engine.position_from_state(game.state).centers
                counts = ", ".join(f"{p.title()[:3]} {len(c)}" for p, c in sorted(centres.items()))
                for phase in new:
                    print(f"demo: {describe_phase(phase)} adjudicated, reports mailed to the Maildir", flush=True)
                print(f"demo: centres: {counts}; now {describe_phase(game.phase)}", flush=True)
                adjudicated += len(new)
            if game.status != "active" or (turns and adjudicated >= turns):
                _wait_for_reports(daemon, stop)
                break
    finally:
        bots.stop()
        daemon.stop()
    print(f"demo: stopped after {adjudicated} adjudication(s); the game and its mail stay in {directory}")
    return 0


def _wait_for_reports(daemon: Daemon, stop: threading.Event, timeout: float = 120.0) -> None:
    """Until the outbox has sent what the last adjudication queued: the console said the reports
    were mailed, and `--turns N` stops only once they are in the Maildir."""
    waited = 0.0
    while _unsent(daemon) and waited < timeout and not stop.wait(0.2):
        waited += 0.2


def _unsent(daemon: Daemon) -> bool:
    return any(row.status in ("pending", "sending") for row in views.outbox(daemon.services.sessions))


def _demo_game(daemon: Daemon, turn_seconds: float) -> tuple[int, str]:
    now = datetime.now(UTC)
    sessions = daemon.services.sessions
    games = views.games_named_like(sessions, "demo")
    active = [g for g in games if g.status == "active"]
    if active:
        game = active[-1]
        log.info("resuming %s at %s", game.name, describe_phase(game.phase))
        if game.deadline is not None and game.deadline < now:
            postpone_deadline(sessions, game.id, now + timedelta(seconds=turn_seconds))
        return game.id, game.name
    name = "demo" if not games else f"demo{len(games) + 1}"
    short = timedelta(seconds=max(turn_seconds / 2, 3))
    game_id, _ = open_game(sessions, GameSpec(
        name=name, ruleset=load_ruleset("standard"),
        players=[PlayerSpec(power, bot_address(power)) for power in POWERS],
        movement=timedelta(seconds=turn_seconds), retreat=short, adjustment=short,
        reminder=timedelta(seconds=turn_seconds / 3),
        sender_check="from",  # the bots mail from unsigned loopback addresses
        enforce_minimums=False,  # turns of seconds: the profile's minimum turn lengths would refuse them
    ), now, services=daemon.services)  # every player's start mail, as the README promises
    log.info("created game %s with seven bot players; their start mails are queued", name)
    return game_id, name
