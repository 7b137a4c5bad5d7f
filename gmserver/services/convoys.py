"""The GM's convoy rulings (000 VI(4), MATRIX 2.16; gmserver.rules.convoys): found after each
adjudication and flagged to the GM, ruled with `gmserver game convoy`, applied when the phase is
adjudicated (again, after a rollback)."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Mapping, Sequence

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.convoys import ConvoyDispute, apply_rulings, disputed_convoys
from gmserver.rules.order import Order
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.services.context import Services
from gmserver.services.outbox import queue

log = logging.getLogger(__name__)

RULINGS = ("fails", "stands")


def ruled_orders(record: PhaseRecord, orders: Mapping[str, Sequence[Order]], services: Services,
                 ) -> dict[str, tuple[Order, ...]]:
    """The orders with the GM's rulings on this phase applied (none: unchanged)."""
    return apply_rulings(orders, record.rulings or (), services.geography)


def with_ruling_notes(outcome: PhaseOutcome, original: Mapping[str, Sequence[Order]],
                      ruled: Mapping[str, Sequence[Order]]) -> PhaseOutcome:
    """Say in the report which orders the GM's ruling changed, and why."""
    changed = {text for power in ruled for text in set(ruled[power]) - set(original.get(power, ()))}
    if not changed:
        return outcome
    note = "held by the GM's ruling: the convoy was disrupted (house rules 000 VI(4))"
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=note) if o.order in changed else o for o in outcome.orders))


def flag_disputes(session: Session, services: Services, game: Game, record: PhaseRecord, outcome: PhaseOutcome,
                  now: datetime) -> tuple[ConvoyDispute, ...]:
    """datc_4a1 = mhr_hybrid (000 VI(4)): tell the GM of each convoyed move the engine let succeed
    that 000 says failed and the GM has not ruled on (once per phase and revision)."""
    ruled = {r.get("move") for r in record.rulings or ()}
    disputes = tuple(d for d in disputed_convoys(outcome, services.geography) if d.move not in ruled)
    if not disputes:
        return ()
    lines = [f"{game.name} {describe_phase(outcome.phase)}: the engine's result differs from house rules 000 VI(4):",
             "", *(f"  - {d.describe()}." for d in disputes), "",
             "The results were published as the engine gave them. To apply 000 VI(4) (MATRIX 2.16), within the "
             "correction window:", "",
             f"  gmserver game rollback {game.name}",
             *(f"  gmserver game convoy {game.name} \"{d.move}\" fails" for d in disputes),
             f"  gmserver game preview {game.name}", f"  gmserver adjudicate {game.name}"]
    message = services.composer.compose(
        to=services.composer.gm_address, subject=f"{game.name}: a convoy to rule on ({describe_phase(outcome.phase)})",
        body="\n".join(lines), auto_submitted="auto-generated", date=now)
    queue(session, message, kind="alert", dedupe_key=f"alert:convoy:{game.id}:{outcome.phase}:{record.revision}",
          now=now, game_id=game.id)
    log.warning("%s %s: 000 VI(4) convoy disputes flagged to the GM: %s", game.name, outcome.phase,
                "; ".join(d.move for d in disputes))
    return disputes


@dataclass(frozen=True)
class Ruled:
    game: str
    phase: str
    move: str
    ruling: str


def rule_convoy(services: Services, name: str, move: str, ruling: str, now: datetime, *, by: str = "cli") -> Ruled:
    """rule_convoy_in, in its own transaction (the command line)."""
    # services.turns imports this module, and corrections (through games) imports turns
    from gmserver.services.corrections import locked_game  # noqa: PLC0415

    with transaction(services.sessions) as session:
        return rule_convoy_in(session, services, locked_game(session, name), move, ruling, by=by, now=now)


def rule_convoy_in(session: Session, services: Services, game: Game, move: str, ruling: str, *, by: str,
                   now: datetime) -> Ruled:
    """Record the GM's ruling on a convoyed move of the current phase: "fails" (000 VI(4): the
    convoy was disrupted) or "stands" (the engine's result). Applied when the phase is adjudicated."""
    from gmserver.services.corrections import CorrectionError  # noqa: PLC0415  (see rule_convoy)

    if ruling not in RULINGS:
        raise CorrectionError(f"a ruling is one of {', '.join(RULINGS)}, not {ruling!r}")
    order = Order.parse_or_none(" ".join(move.split()).upper())
    if order is None or order.action != "move" or order.unit is None or order.unit.kind != "A":
        raise CorrectionError(f"{move!r} is not an army's move in engine notation, e.g. \"A LON - BEL\"")
    if queries.games.ruleset_of(game).datc_4a1 != "mhr_hybrid":
        raise CorrectionError(f"{game.name} does not play the convoy rule of house rules 000 VI(4): its convoys "
                              "are disrupted only when every route is (DATC 4.A.1), as adjudicated")
    if game.status != "active":
        raise CorrectionError(f"{game.name} is {game.status}")
    record = queries.phases.current_record(session, game)
    text = str(Order("move", order.unit, order.target))
    record.rulings = [*(r for r in record.rulings or () if r.get("move") != text),
                      {"move": text, "ruling": ruling, "at": now.isoformat()}]
    queries.gm_actions.record_action(
        session, game.id, "convoy", {"move": text, "ruling": ruling}, by, now,
        f"{text} {ruling} in {describe_phase(game.phase)} (house rules 000 VI(4)); applied at adjudication")
    return Ruled(game.name, game.phase, text, ruling)
