"""The GM's repair of a surplus unit (`extra_unit_repair = mhr`, 000 VIII(2), VIII(3);
the plan is gmserver.rules.repairs): `gmserver game repair` and the `repair` mail command.
Without `confirm` it only says what it would do (the server proposes, the GM confirms);
confirmed, the current phase's board is changed, the action recorded and every player told."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.order import Unit
from gmserver.rules.repairs import Repair, RepairError, plan_repair
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce
from gmserver.services.features.corrections import CorrectionError
from gmserver.services.game.games import locked_game


@dataclass(frozen=True)
class Repaired:
    game: str
    phase: str
    repair: Repair
    done: bool  # False: only proposed
    notices: int


def repair_unit(services: Services, name: str, power: str, unit: str | None, move_to: str | None, now: datetime,
                *, confirm: bool, by: str = "cli") -> Repaired:
    """repair_unit_in, in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        return repair_unit_in(session, services, locked_game(session, name), power, unit, move_to,
                              confirm=confirm, by=by, now=now)


def repair_unit_in(session: Session, services: Services, game: Game, power: str, unit: str | None,
                   move_to: str | None, *, confirm: bool, by: str, now: datetime) -> Repaired:
    """Remove (or, 000 VIII(3), move) one surplus unit of `power` on the current phase's board;
    with no unit named the game's removal rule picks it (000 VIII(2))."""
    if queries.games.ruleset_of(game).extra_unit_repair != "mhr":
        raise CorrectionError(f"{game.name}'s house rules leave a surplus unit to the GM by hand: roll back the "
                              "adjudication that made it and correct the orders")
    if game.status != "active":
        raise CorrectionError(f"{game.name} is {game.status}")
    record = queries.phases.current_record(session, game)
    try:
        named = Unit.parse(" ".join(unit.split()).upper()) if unit else None
        repair = plan_repair(engine.position_from_state(record.state), power.upper(), named,
                             move_to.upper() if move_to else None, queries.games.ruleset_of(game), services.geography)
    except (RepairError, ValueError) as error:
        raise CorrectionError(str(error)) from None
    if not confirm:
        return Repaired(game.name, game.phase, repair, False, 0)
    record.state = engine.with_units(record.state, repair.power, repair.units_after)
    action = queries.gm_actions.record_action(
        session, game.id, "repair", {"power": repair.power, "unit": repair.unit, "to": repair.moved_to}, by, now,
        repair.describe())
    notices = announce(session, services, game, action.id, f"{repair.unit} {'moved' if repair.moved_to else 'removed'}",
                       [f"The GM corrected the board: {repair.describe()}."], now)
    return Repaired(game.name, game.phase, repair, True, notices)
