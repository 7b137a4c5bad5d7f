"""`gmserver game preview`: the current phase adjudicated with the orders on file, shown to the GM
and never stored or mailed (the GM checks a correction before publishing it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from gmserver import reports
from gmserver.db import queries
from gmserver.db.session import transaction
from gmserver.rules.convoys import apply_rulings, disputed_convoys
from gmserver.rules.position import PhaseOutcome, phase_type
from gmserver.services import adjudication, nmr, schedule, turns
from gmserver.services.context import Services
from gmserver.services.games import GameError, find_game


@dataclass(frozen=True)
class Preview:
    game: str
    phase: str
    next_phase: str
    orders: dict[str, tuple[str, ...]]  # what the engine was given, per power, in engine notation
    text: str  # the results report as the players would read it
    # 000 VI(4) (datc_4a1 = mhr_hybrid): convoys the GM should rule on, and the results if the GM
    # rules them disrupted (`gmserver game convoy NAME MOVE fails`), side by side (MATRIX 2.16)
    disputes: tuple[str, ...] = ()
    if_disrupted: str | None = None


def preview(services: Services, name: str, now: datetime) -> Preview:
    """What adjudicating the game's current phase now would publish. Nothing is written: the
    transaction is rolled back whatever happened in it."""
    with transaction(services.sessions) as session:
        game = find_game(session, name)
        if game.status != "active":
            raise GameError(f"{game.name} is {game.status}: there is no phase to preview")
        record = queries.phases.current_record(session, game)
        ruleset = queries.games.ruleset_of(game)
        computed = turns.compute_outcome(session, services, game, record, ruleset)
        orders, outcome = computed.orders, computed.outcome
        finished = bool(outcome.winners) or phase_type(outcome.after.phase) == "-"
        deadline = None if finished else schedule.following_deadline(game, ruleset, outcome.after.phase, now)
        render = _renderer(services, game, deadline)
        disputes, alternative = (), None
        if ruleset.datc_4a1 == "mhr_hybrid":
            ruled = {r.get("move") for r in record.rulings or ()}
            found = [d for d in disputed_convoys(outcome, services.geography) if d.move not in ruled]
            if found:
                disputes = tuple(d.describe() for d in found)
                ruled_all = apply_rulings(orders, [{"move": d.move, "ruling": "fails"} for d in found],
                                          services.geography)
                alternative = render(adjudication.adjudicate_with_defaults(
                    record.state, ruled_all, ruleset, nmr.civil_disorder_of(game)))
        result = Preview(game.name, game.phase, outcome.after.phase, {p: tuple(str(o) for o in os) for p, os in orders.items()},
                         render(outcome), disputes, alternative)
        session.rollback()  # a preview stores nothing
    return result


def _renderer(services: Services, game, deadline: datetime | None):  # type: ignore[no-untyped-def]
    def render(outcome: PhaseOutcome) -> str:
        context = reports.build_turn_report(outcome, geography=services.geography, game_name=game.name,
                                            next_deadline=deadline, timezone=game.timezone)
        return services.composer.render(context.template, context)
    return render
