"""`gmserver game preview`: the current phase adjudicated with the orders on file, shown to the GM
and never stored or mailed (the GM checks a correction before publishing it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.reports.turn import build_turn_report
from gmserver.reports.words import name_order, result_in_words
from gmserver.rules.convoys import apply_rulings
from gmserver.rules.order import Order, Unit
from gmserver.rules.position import PhaseOutcome, phase_type
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.features import convoys, nmr
from gmserver.services.game.games import GameError, find_game
from gmserver.services.game.schedule import following_deadline
from gmserver.services.turn import adjudication, turn_report, turns


@dataclass(frozen=True)
class Preview:
    game: str
    phase: str
    next_phase: str
    orders: dict[str, tuple[str, ...]]  # what the engine was given, per power, in engine notation
    text: str  # the results report as the players would read it
    # 000 VI(4) and VI(6): convoys the GM should rule on, and the results if the GM
    # rules the VI(4) ones disrupted (`gmserver game convoy NAME MOVE fails`), side by side
    disputes: tuple[str, ...] = ()
    if_disrupted: str | None = None
    results: tuple[str, ...] = ()  # "A Paris -> Burgundy (A PAR - BUR): bounced", one per order (mail)


def preview(services: Services, name: str, now: datetime) -> Preview:
    """preview_in, in a transaction of its own that is rolled back whatever happened in it."""
    with transaction(services.sessions) as session:
        result = preview_in(session, services, find_game(session, name), now)
        session.rollback()  # a preview stores nothing
    return result


def preview_in(session: Session, services: Services, game: Game, now: datetime) -> Preview:
    """What adjudicating the game's current phase now would publish. Leaves nothing behind: what
    the two-season game writes on the way (003 [5]) is undone with a savepoint, since GM mail
    calls this inside the message's own transaction."""
    if game.status != "active":
        raise GameError(f"{game.name} is {game.status}: there is no phase to preview")
    savepoint = session.begin_nested()
    try:
        return _preview(session, services, game, now)
    finally:
        savepoint.rollback()


def _preview(session: Session, services: Services, game: Game, now: datetime) -> Preview:
    record = queries.phases.current_record(session, game)
    ruleset = queries.games.ruleset_of(game)
    phase = game.phase
    computed = turns.compute_outcome(session, services, game, record, ruleset)
    orders, first, first_record = computed.orders, computed.outcome, record
    then = _processed_with(session, services, game, record, ruleset, first, now,
                           lambda later: turns.compute_outcome(session, services, game, later, ruleset))
    outcome = then[-1] if then else first
    finished = bool(outcome.winners) or phase_type(outcome.after.phase) == "-"
    deadline = None if finished else following_deadline(game, ruleset, outcome.after.phase, now)
    render = _renderer(services, game, deadline)
    # 000 VI(4) and VI(6): what the GM should rule on
    found, alternative = convoys.checks(game, first_record, first, services, orders), None
    if found.disrupted:
        changed = apply_rulings(orders, [{"move": move, "ruling": "fails"} for move in found.disrupted],
                                services.geography)
        alternative = render(adjudication.adjudicate_with_defaults(first_record.state, changed, ruleset,
                                                                   nmr.civil_disorder_of(game)))
    disputes = found.texts
    # engine notation at this edge
    return Preview(game.name, phase, outcome.after.phase,
                   {p: tuple(str(o) for o in power_orders) for p, power_orders in orders.items()},
                   turn_report.report_body(services, game, first, deadline, then), disputes, alternative,
                   results_in_words(services, (first, *then)))


@dataclass(frozen=True)
class Imagined:
    """A phase adjudicated with imagined orders (a player's WHATIF): nothing stored, nothing sent."""

    phase: str
    outcome: PhaseOutcome  # the current phase's
    then: tuple[PhaseOutcome, ...]  # the retreats and adjustments processed with it (003 [5])
    results: tuple[str, ...]  # as Preview.results words them


def imagine_in(session: Session, services: Services, game: Game, now: datetime,
               orders: Mapping[str, tuple[Order, ...]], unsupportable: Iterable[Unit] = ()) -> Imagined:
    """What adjudicating the game's current phase now would do with `orders` alone, by the path
    `preview_in` takes (turns.imagined_outcome: no set on file is read, units without an imagined
    order take the house rules' defaults). Leaves nothing behind (a savepoint, as preview_in)."""
    if game.status != "active":
        raise GameError(f"{game.name} is {game.status}: there is no phase to adjudicate")
    savepoint = session.begin_nested()
    try:
        record = queries.phases.current_record(session, game)
        ruleset = queries.games.ruleset_of(game)
        phase = game.phase
        first = turns.imagined_outcome(services, game, record, ruleset, orders, unsupportable).outcome
        # 003 [5]: the retreats and adjustments that follow take the defaults (nothing imagined for them)
        then = _processed_with(session, services, game, record, ruleset, first, now,
                               lambda later: turns.imagined_outcome(services, game, later, ruleset, {}, ()))
        return Imagined(phase, first, then, results_in_words(services, (first, *then)))
    finally:
        savepoint.rollback()


def _processed_with(session: Session, services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                    outcome: PhaseOutcome, now: datetime,
                    compute: Callable[[PhaseRecord], turns.Computed]) -> tuple[PhaseOutcome, ...]:
    """003 [5]: the retreat and adjustment phases processed with the movement phase of `outcome`,
    as in turns.adjudicate (written only for the preview: the caller's savepoint undoes it)."""
    then = []
    while turns.processed_at_once(ruleset, outcome):
        record.adjudicated_at, record.results = now, turns.results_rows(outcome)
        record = turns.open_at_once(session, game, outcome, now)
        outcome = compute(record).outcome
        then.append(outcome)
    return tuple(then)


def results_in_words(services: Services, outcomes: Iterable[PhaseOutcome]) -> tuple[str, ...]:
    """One line per order, in the report's words (its wording helpers), not engine notation
    alone: the GM and the player read what the players will read."""
    geography = services.geography
    return tuple(f"{name_order(o.order, geography).line}: "
                 f"{result_in_words(o, done.before.phase_type, done.orders, geography, done.before)}"
                 for done in outcomes for o in done.orders)


def _renderer(services: Services, game, deadline: datetime | None):  # type: ignore[no-untyped-def]
    def render(outcome: PhaseOutcome) -> str:
        context = build_turn_report(outcome, geography=services.geography, game_name=game.name,
                                            next_deadline=deadline, timezone=game.timezone)
        return services.composer.render(context.template, context)
    return render
