"""`gmserver game preview`: the current phase adjudicated with the orders on file, shown to the GM
and never stored or mailed (the GM checks a correction before publishing it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gmserver import reports
from gmserver.db import queries
from gmserver.db.session import transaction
from gmserver.rules.deadlines import next_deadline
from gmserver.rules.position import phase_type
from gmserver.services import turns
from gmserver.services.context import Services
from gmserver.services.games import GameError, find_game


@dataclass(frozen=True)
class Preview:
    game: str
    phase: str
    next_phase: str
    orders: dict[str, tuple[str, ...]]  # what the engine was given, per power
    text: str  # the results report as the players would read it


def preview(services: Services, name: str, now: datetime) -> Preview:
    """What adjudicating the game's current phase now would publish. Nothing is written: the
    transaction is rolled back whatever happened in it."""
    with transaction(services.sessions) as session:
        game = find_game(session, name)
        if game.status != "active":
            raise GameError(f"{game.name} is {game.status}: there is no phase to preview")
        record = queries.phases.current_record(session, game)
        orders, outcome = turns.compute_outcome(session, services, game, record, queries.games.ruleset_of(game))
        finished = bool(outcome.winners) or phase_type(outcome.after.phase) == "-"
        deadline = None if finished else next_deadline(outcome.after.phase, now, turns.lengths_of(game),
                                                       game.timezone)
        context = reports.build_turn_report(outcome, geography=services.geography, game_name=game.name,
                                            next_deadline=deadline, timezone=game.timezone)
        text = services.composer.render(context.template, context)
        result = Preview(game.name, game.phase, outcome.after.phase, {p: tuple(o) for p, o in orders.items()}, text)
        session.rollback()  # a preview stores nothing
    return result
