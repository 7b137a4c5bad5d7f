"""The GM's convoy rulings (000 VI(4); gmserver.rules.convoys): found after each
adjudication and flagged to the GM, ruled with `gmserver game convoy`, applied when the phase is
adjudicated (again, after a rollback). And 000 VI(6)'s paradox rule (gmserver.rules.paradoxes),
applied at adjudication with the engine as its adjudicator."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.reports.words import describe_unit, name_order
from gmserver.rules.convoy_routes import follow_routes
from gmserver.rules.convoys import apply_rulings, disputed_convoys
from gmserver.rules.geography import MapInfo
from gmserver.rules.order import Order, Unit
from gmserver.rules.paradoxes import Paradox, resolve
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.reading.rule_words import rule_in_words
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.features.corrections import CorrectionError
from gmserver.services.game.games import locked_game

log = logging.getLogger(__name__)

RULINGS = ("fails", "stands")


def ruled_orders(record: PhaseRecord, orders: Mapping[str, Sequence[Order]], services: Services,
                 ) -> dict[str, tuple[Order, ...]]:
    """The orders with the GM's rulings on this phase applied (none: unchanged)."""
    return apply_rulings(orders, record.rulings or (), services.geography)


def routes_followed(orders: Mapping[str, Sequence[Order]], ruleset: Ruleset, services: Services,
                    ) -> tuple[dict[str, tuple[Order, ...]], dict[Order, str]]:
    """The orders with each written convoy route carried out (000 VI(3), DATC 4.A.6:
    rules/convoy_routes.py), and a note for each order that changed."""
    return follow_routes(orders, ruleset, services.geography)


def with_route_notes(outcome: PhaseOutcome, notes: Mapping[Order, str]) -> PhaseOutcome:
    """Say in the report which orders a written convoy route voided, and why."""
    if not notes:
        return outcome
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=notes[o.order]) if o.order in notes and not o.defaulted else o
        for o in outcome.orders))


def with_ruling_notes(outcome: PhaseOutcome, original: Mapping[str, Sequence[Order]],
                      ruled: Mapping[str, Sequence[Order]]) -> PhaseOutcome:
    """Say in the report which orders the GM's ruling changed, and why."""
    if ruled == original:  # most phases have no ruling; equal orders compare without hashing each order
        return outcome
    changed = {text for power in ruled for text in set(ruled[power]) - set(original.get(power, ()))}
    if not changed:
        return outcome
    note = "held by the GM's ruling: the convoy was disrupted (house rules 000 VI(4))"
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=note) if o.order in changed else o for o in outcome.orders))


def paradox_rule(state: Mapping[str, object], texts: Mapping[str, Sequence[Order | str]], outcome: PhaseOutcome,
                 geography: MapInfo) -> tuple[PhaseOutcome, tuple[Paradox, ...]]:
    """000 VI(6) (datc_4a2 = rb2000_all_hold_backup): the outcome of a movement phase with its
    convoy paradoxes resolved by the 2000 rule, or every move in the paradox failing where that
    rule leaves no or several resolutions, instead of the engine's Szykman rule; `outcome` (the
    engine's) is kept when the board comes out the same. `texts` are the complete orders (Order
    values, or text as `engine.adjudicate` takes it)."""
    if outcome.before.phase_type != "M":
        return outcome, ()
    parsed = {power: tuple(o for line in lines
                           if (o := line if isinstance(line, Order) else Order.parse_or_none(line)) is not None)
              for power, lines in texts.items()}

    def dislodged(orders: Mapping[str, tuple[Order, ...]]) -> frozenset[Unit]:
        tried = engine.adjudicate(state, _texts(orders, texts), engine_decides_solo=False, position=outcome.before)
        return frozenset(o.order.unit for o in tried.orders if o.order.unit is not None and "dislodged" in o.results)

    resolved, paradoxes = resolve(parsed, geography, dislodged)
    for paradox in paradoxes:
        log.info("%s: %s", outcome.phase, paradox.describe())
    if resolved == parsed:
        return outcome, paradoxes
    ruled = engine.adjudicate(state, _texts(resolved, texts), engine_decides_solo=False, position=outcome.before)
    if ruled.after == outcome.after:
        return outcome, paradoxes  # the engine's Szykman rule gave the same board: its report stands
    changed = {o.unit: o for power in parsed for o in parsed[power] if o not in resolved[power]}
    return dataclasses.replace(ruled, orders=tuple(
        dataclasses.replace(o, note=_paradox_note(changed[o.order.unit])) if o.order.unit in changed else o
        for o in ruled.orders)), paradoxes


def _paradox_note(ordered: Order) -> str:
    what = "the move fails" if ordered.action == "move" else "the move it was for fails"
    return f"ordered {ordered}: {what}, the convoy paradox being settled by house rules 000 VI(6)"


def _texts(orders: Mapping[str, Sequence[Order]], original: Mapping[str, Sequence[Order | str]],
           ) -> dict[str, tuple[str, ...]]:
    """Engine notation for `orders`, with the lines of `original` that are not orders kept (the
    engine drops those: their units were completed with defaults)."""
    return {power: tuple(str(o) for o in orders.get(power, ()))
            + tuple(line for line in lines if isinstance(line, str) and Order.parse_or_none(line) is None)
            for power, lines in original.items()}


@dataclass(frozen=True)
class Checks:
    texts: tuple[str, ...]  # each case in words
    disrupted: tuple[str, ...]  # the moves 000 VI(4) says failed, for `gmserver game convoy ... fails`


def checks(game: Game, record: PhaseRecord, outcome: PhaseOutcome, services: Services,
           given: Mapping[str, Sequence[Order]] | None = None) -> Checks:
    """What the GM should look at in this outcome under the game's convoy rule (datc_4a1):
    the disputes not ruled on yet. `given`: the orders as given (with the routes their
    moves named, 000 VI(3)); by default those the record keeps. 000 VI(6)'s paradoxes are not
    flagged: the server resolves them itself (paradox_rule)."""
    ruleset = queries.games.ruleset_of(game)
    ruled = {r.get("move") for r in record.rulings or ()}
    disputes = [d for d in disputed_convoys(outcome, services.geography, ruleset.datc_4a1,
                                            written_routes(given if given is not None else record.orders or {}))
                if d.move not in ruled]
    # the move as the report words it, its notation beside it for `gmserver game convoy NAME MOVE fails`
    return Checks(tuple(d.describe(name_order(Order.parse(d.move), services.geography).line,
                                   [describe_unit(fleet, services.geography) for fleet in d.dislodged])
                        for d in disputes),
                  tuple(d.move for d in disputes))


def written_routes(orders: Mapping[str, Sequence[Order | str]]) -> dict[Unit, tuple[str, ...]]:
    """army -> the route its move named (000 VI(3)), from Order values or engine notation."""
    parsed = (o if isinstance(o, Order) else Order.parse_or_none(o) for lines in orders.values() for o in lines)
    return {o.unit: o.route for o in parsed if o is not None and o.unit is not None and o.route}


def flag_disputes(session: Session, services: Services, game: Game, record: PhaseRecord, outcome: PhaseOutcome,
                  now: datetime, given: Mapping[str, Sequence[Order]] | None = None) -> tuple[str, ...]:
    """Tell the GM of each convoy the game's house rules (000 VI(4), VI(6)) may decide otherwise
    than the engine did (once per phase and revision); what was flagged. `given`: the orders as
    given, where the caller has them (the record keeps their text)."""
    found = checks(game, record, outcome, services, given)
    if not found.texts:
        return ()
    commands = [f"gmserver game rollback {game.name}",
                *(f"gmserver game convoy {game.name} \"{move}\" fails" for move in found.disrupted),
                f"gmserver game preview {game.name}", f"gmserver adjudicate {game.name}"]
    lines = [f"{game.name} {describe_phase(outcome.phase)}: the engine's result may differ from house rules 000 VI:",
             *(f"- {text}." for text in found.texts),
             "The results were published as the engine gave them. To rule otherwise, within the "
             "correction window, run in turn:", *commands]
    notify_gm(session, services, key=f"alert:convoy:{game.id}:{outcome.phase}:{record.revision}", game_id=game.id,
              now=now, subject=f"{game.name}: a convoy to rule on ({describe_phase(outcome.phase)})", paragraphs=lines)
    log.warning("%s %s: convoys flagged to the GM (000 VI): %s", game.name, outcome.phase, " / ".join(found.texts))
    return found.texts


@dataclass(frozen=True)
class Ruled:
    game: str
    phase: str
    move: str
    ruling: str


def rule_convoy(services: Services, name: str, move: str, ruling: str, now: datetime, *, by: str = "cli") -> Ruled:
    """rule_convoy_in, in its own transaction (the command line)."""
    # services.turn.turns imports this module, and corrections (through games) imports turns
    with transaction(services.sessions) as session:
        return rule_convoy_in(session, services, locked_game(session, name), move, ruling, by=by, now=now)


def rule_convoy_in(session: Session, services: Services, game: Game, move: str, ruling: str, *, by: str,
                   now: datetime) -> Ruled:
    """Record the GM's ruling on a convoyed move of the current phase: "fails" (000 VI(4), or
    DATC 4.A.1's any-route rule: the convoy was disrupted) or "stands" (the engine's result).
    Applied when the phase is adjudicated."""
    if ruling not in RULINGS:
        raise CorrectionError(f"a ruling is one of {', '.join(RULINGS)}, not {ruling!r}")
    order = Order.parse_or_none(" ".join(move.split()).upper())
    if order is None or order.action != "move" or order.unit is None or order.unit.kind != "A":
        raise CorrectionError(f"{move!r} is not an army's move in engine notation, e.g. \"A LON - BEL\"")
    if queries.games.ruleset_of(game).datc_4a1 == "all_routes":
        raise CorrectionError(f"{game.name} does not play the convoy rule of house rules 000 VI(4) or the 1971 rule: "
                              "its convoys are disrupted only when every route is "
                              f"({rule_in_words('DATC 4.A.1')}), as adjudicated")
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
