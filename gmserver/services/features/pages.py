"""What the read-only web pages show (gmserver/web/), as plain values: each function opens its own
transaction and returns dataclasses, never rows, like services/features/views.py does for the
command line.

What a page may show is decided here, not in the templates: the public pages show the board, the
powers (never an address) and what the turn reports published; a player's page adds that
player's own orders on file, confirmations and press, and never another power's orders before
the results; the GM's page says where every game stands.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, OutboxMessage
from gmserver.db.queries import pages as page_queries
from gmserver.db.session import transaction
from gmserver.reports.extras import centre_history
from gmserver.reports.turn import TurnReport
from gmserver.reports.words import describe_order, format_time, power_name
from gmserver.rules.geography import MapInfo
from gmserver.rules.position import OrderOutcome, PhaseOutcome, Position, describe_phase
from gmserver.services.base.outbox import subject_of
from gmserver.services.base.page_tokens import page_token, player_of_token
from gmserver.services.base.report_copies import ReportParts, parts_of
from gmserver.services.game.ordersets import orders_on_file


@dataclass(frozen=True)
class PowerRow:
    power: str
    name: str
    centres: tuple[str, ...]
    units: tuple[str, ...]


@dataclass(frozen=True)
class PhaseLink:
    phase: str  # the short form reports use, "S1901M"
    name: str  # "Spring 1901 Movement"


@dataclass(frozen=True)
class GamePage:
    """A game now, as anybody may see it."""
    name: str
    status: str
    phase: str
    phase_name: str
    deadline: datetime | None
    deadline_local: str | None  # in the game's zone, with the zone
    deadline_utc: str | None
    paused: bool
    powers: tuple[PowerRow, ...]
    unit_count: int
    past: tuple[PhaseLink, ...]  # the phases reported, oldest first
    version: str  # changes whenever what the page shows may change (the ETag)
    # the game's own choice: public, private (nothing without a player's link or the GM's
    # password), or None (as `[web] public` says)
    public: bool | None = None


@dataclass(frozen=True)
class PhasePage:
    """A past phase as its turn report gave it (the report stored at its deadline)."""
    game_name: str
    phase: str
    phase_name: str
    reports: tuple[TurnReport, ...]  # the phase's report, then those processed at once with it
    outcome: PhaseOutcome  # what the map is drawn from
    history: tuple[tuple[str, ...], dict[str, tuple[int, ...]]]  # the centre chart's points
    key: str  # the stored report's key: a re-adjudication after a rollback gives a new one
    latest: bool  # the last report: a rollback may still replace it (000 VIII(1)); the others never change
    public: bool | None = None  # as GamePage.public


@dataclass(frozen=True)
class OrderLine:
    text: str  # in words, as the reports write orders
    order: str  # the notation as players read it (Order.for_players: "via convoy", not the engine's VIA)


@dataclass(frozen=True)
class Confirmation:
    version: int  # counts the power's sets this phase
    marker: str | None  # the set's own version marker, as the player wrote it
    received_at: datetime
    status: str | None
    lines: tuple[tuple[str, str, str], ...]  # (line as written, how it was read, what gmserver says)


@dataclass(frozen=True)
class PressItem:
    phase: str
    heading: str
    text: str


@dataclass(frozen=True)
class PlayerPage:
    """What a player's own link shows besides the public page."""
    game: GamePage
    power: str
    power_name: str
    orders: tuple[OrderLine, ...]  # their orders on file for the current phase, as gmserver read them
    confirmations: tuple[Confirmation, ...]
    press: tuple[PressItem, ...]
    token: str


@dataclass(frozen=True)
class GmGameRow:
    name: str
    status: str
    phase: str
    phase_name: str
    deadline_utc: str | None
    paused: bool
    not_ordered: tuple[str, ...]
    held: int
    open_votes: int
    # what the GM set apart for the game: "anonymous", "private pages", "public pages"
    marks: tuple[str, ...] = ()


@dataclass(frozen=True)
class GmPage:
    games: tuple[GmGameRow, ...]
    parked_mail: int  # inbound mail that failed processing (`gmserver inbox`)
    undeliverable_mail: int  # outgoing mail given up on (`gmserver outbox list --status failed`)
    alerts: tuple[tuple[str, datetime], ...]  # the latest alerts mailed to the GM: parked, undeliverable, outages


def _game_page(session: Session, game: Game) -> GamePage:
    record = queries.phases.current_record(session, game)
    position = engine.position_from_state(record.state)
    when = format_time(game.deadline, game.timezone) if game.deadline else None
    powers = tuple(PowerRow(power, power_name(power), tuple(sorted(position.centers.get(power, ()))),
                            tuple(position.units.get(power, ())))
                   for power in sorted(set(position.centers) | set(position.units) | {p.power for p in game.players}))
    past = tuple(PhaseLink(phase, describe_phase(phase)) for phase in _reported_phases(session, game.id))
    version = hashlib.sha256(repr((game.phase, record.id, record.revision, game.deadline, game.status,
                                   game.paused, past, game.pages_public)).encode()).hexdigest()[:24]
    return GamePage(name=game.name, status=game.status, phase=game.phase, phase_name=describe_phase(game.phase),
                    deadline=game.deadline, deadline_local=when.local if when else None,
                    deadline_utc=when.utc if when else None, paused=game.paused, powers=powers,
                    unit_count=sum(len(p.units) for p in powers), past=past, version=version,
                    public=game.pages_public)


def game_page(sessions: sessionmaker[Session], name: str) -> GamePage | None:
    """The game `name` now; None if there is none."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        return _game_page(session, game) if game is not None else None


def current_position(sessions: sessionmaker[Session], name: str) -> Position | None:
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        if game is None:
            return None
        return engine.position_from_state(queries.phases.current_record(session, game).state)


@functools.lru_cache(maxsize=256)
def _parts(payload: str) -> ReportParts:
    """A stored report read back; a past phase never changes, so once per process."""
    return parts_of(payload)


def _reports(session: Session, game_id: int) -> list[ReportParts]:
    """The game's turn reports in force: after a rollback, the re-adjudication's replaces the first."""
    by_first_phase: dict[str, ReportParts] = {}
    for row in page_queries.reports_of(session, game_id):
        try:
            parts = _parts(row.payload)
        except ValueError:  # a report of an older version: its phase has no page, the others do
            continue
        by_first_phase[parts.contexts[0].phase] = parts
    return sorted(by_first_phase.values(), key=lambda parts: _phase_order(parts.contexts[0].phase))


def _phase_order(phase: str) -> tuple[int, int, int]:
    season = {"S": 0, "F": 1, "W": 2}.get(phase[:1], 3)
    kind = {"M": 0, "R": 1, "A": 2}.get(phase[-1:], 3)
    year = int(phase[1:-1]) if phase[1:-1].isdigit() else 0
    return year, season, kind


def _reported_phases(session: Session, game_id: int) -> list[str]:
    return [context.phase for parts in _reports(session, game_id) for context in parts.contexts]


def phase_page(sessions: sessionmaker[Session], name: str, phase: str) -> PhasePage | None:
    """The phase `phase` of game `name` as its report gave it; None if it has not been reported."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        if game is None:
            return None
        reported = _reports(session, game.id)
        for number, parts in enumerate(reported):
            phases = [context.phase for context in parts.contexts]
            if phase in phases:
                # the phases processed at once with it (003 [5]) came in one report: its page shows
                # them from this phase on; the map is the first one's, which the report drew
                reports = parts.contexts[phases.index(phase):]
                return PhasePage(game_name=game.name, phase=phase, phase_name=describe_phase(phase),
                                 reports=reports, outcome=parts.outcome,
                                 history=centre_history(parts.centre_points), key=parts.key,
                                 latest=number == len(reported) - 1, public=game.pages_public)
        return None


def issue_page_token(sessions: sessionmaker[Session], name: str, power: str, now: datetime) -> str:
    """`page_token` in a transaction of its own (the command line, the demo, tests)."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        player = next((p for p in game.players if p.power == power.upper()), None) if game else None
        if player is None:
            raise LookupError(f"no player of {power} in a game called {name}")
        return page_token(session, player, now)


def power_of_link(sessions: sessionmaker[Session], name: str, token: str) -> str | None:
    """The power whose present link in game `name` is `token`; None for a wrong or old token."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        player = player_of_token(session, game, token) if game is not None else None
        return player.power if player is not None else None


def player_page(sessions: sessionmaker[Session], name: str, token: str, geography: MapInfo) -> PlayerPage | None:
    """The page of the player whose link is `token` in game `name`; None for a wrong or old token."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        player = player_of_token(session, game, token) if game is not None else None
        if game is None or player is None:
            return None
        power = player.power
        ruleset = queries.games.ruleset_of(game)
        # this power's orders only: never another power's before the results
        on_file = orders_on_file(session, game.id, game.phase, ruleset).orders.get(power, ())
        orders = tuple(OrderLine(describe_order(order, geography), order.for_players()) for order in on_file)
        confirmations = tuple(
            Confirmation(row.version, row.marker, row.received_at, row.status,
                         tuple((str(line.get("text") or ""), str(line.get("order") or line.get("status") or ""),
                                str(line.get("message") or "")) for line in row.lines))
            for row in queries.ordersets.order_sets(session, game.id, game.phase) if row.power == power)
        return PlayerPage(game=_game_page(session, game), power=power, power_name=power_name(power),
                          orders=orders, confirmations=confirmations, press=_own_press(session, game, power),
                          token=token)


def _own_press(session: Session, game: Game, power: str) -> tuple[PressItem, ...]:
    """The press the player wrote and the press sent to them, newest first; an author is named only
    when the press named them (white press) or it is the player's own."""
    items = []
    for row in reversed(queries.press.press_of_game(session, game.id, "sent")):
        recipients = [str(r) for r in row.recipients or []]
        if row.author != power and recipients and power not in recipients:
            continue
        author = power_name(row.author) if row.kind == "white" or row.author == power else "Anonymous"
        to = ", ".join(power_name(r) for r in recipients) if recipients else "everyone"
        items.append(PressItem(row.phase, f"{describe_phase(row.phase)}: from {author} to {to}", row.text))
    return tuple(items[:100])


def planned_outcome(sessions: sessionmaker[Session], name: str, token: str) -> PhaseOutcome | None:
    """The position now with the orders the player of `token` has on file, to draw before the
    deadline what will be adjudicated; None for a wrong or old token."""
    with transaction(sessions) as session:
        game = queries.games.game_by_name(session, name)
        player = player_of_token(session, game, token) if game is not None else None
        if game is None or player is None:
            return None
        position = engine.position_from_state(queries.phases.current_record(session, game).state)
        on_file = orders_on_file(session, game.id, game.phase, queries.games.ruleset_of(game)).orders
        orders = tuple(OrderOutcome(player.power, order) for order in on_file.get(player.power, ()))
        return PhaseOutcome(phase=game.phase, before=position, after=position, orders=orders, state_after={})


def gm_page(sessions: sessionmaker[Session]) -> GmPage:
    with transaction(sessions) as session:
        rows = []
        for game in queries.games.games_by_name(session):
            not_ordered: tuple[str, ...] = ()
            if game.status == "active":
                position = engine.position_from_state(queries.phases.current_record(session, game).state)
                owing = position.powers_to_order()
                ordered = {row.power for row in queries.ordersets.order_sets(session, game.id, game.phase)}
                not_ordered = tuple(p.power for p in game.players if p.power in owing and p.power not in ordered)
            rows.append(GmGameRow(
                name=game.name, status=game.status, phase=game.phase, phase_name=describe_phase(game.phase),
                deadline_utc=format_time(game.deadline).utc if game.deadline else None, paused=game.paused,
                not_ordered=not_ordered, held=len(queries.inbound.held_of_game(session, game.id)),
                open_votes=len(queries.votes.open_proposals(session, game.id)),
                marks=(("anonymous",) if game.anonymous else ())
                + (() if game.pages_public is None else ("public pages" if game.pages_public else "private pages",))))
        return GmPage(games=tuple(rows), parked_mail=page_queries.count_inbound(session, "failed"),
                      undeliverable_mail=page_queries.count_outbox(session, "failed"),
                      alerts=tuple((alert_headline(row), row.created_at)
                                   for row in page_queries.recent_alerts(session, 20)))


def alert_headline(row: OutboxMessage) -> str:
    """An alert as the GM's page lists it: the subject it was mailed with, which names the game
    and says what happened ("lepanto: France's player has resigned"), without gmserver's prefix."""
    return subject_of(row).removeprefix("gmserver: ")
