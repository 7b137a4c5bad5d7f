"""The audit of a game's last year (`gmserver game audit`; `extra_unit_repair = mhr`, 000 VIII(2),
VIII(3)): each stored phase adjudicated again with its stored orders, the result
compared with the start the game stored for the next phase (gmserver.rules.audit), and the
differences, with the repairs 000 VIII proposes, sent to the GM. Reads only: the GM repairs
with `gmserver game repair` (the server proposes, the GM confirms)."""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord
from gmserver.db.session import transaction
from gmserver.rules.audit import Difference, Proposal, differences, proposed_repair
from gmserver.rules.position import describe_phase
from gmserver.services.base.context import Services
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.game.games import locked_game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Audit:
    game: str
    replayed: tuple[str, ...]  # the phases adjudicated again, in order
    differences: tuple[str, ...]  # in words
    proposals: tuple[Proposal, ...]  # the repairs 000 VIII proposes

    @property
    def repairs(self) -> tuple[str, ...]:
        """The proposals as command lines."""
        return tuple(p.command(self.game) for p in self.proposals)
    told_gm: bool


def audit_game(services: Services, name: str, now: datetime, *, years: int = 1, notify: bool = True) -> Audit:
    """audit_in, in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        return audit_in(session, services, locked_game(session, name), now, years=years, notify=notify)


def audit_in(session: Session, services: Services, game: Game, now: datetime, *, years: int = 1,
             notify: bool = True) -> Audit:
    """Replay the phases of the last `years` game years (those of the current phase's year and the
    `years` before it) and report what differs; the GM is told when something does."""
    records = queries.phases.records_of(session, game.id)
    first_year = _year(game.phase) - years if _year(game.phase) else 0
    steps = [(before, after) for before, after in zip(records, records[1:], strict=False)
             if before.adjudicated_at is not None and before.results and _year(before.phase) >= first_year]
    repairs = [a.arguments for a in queries.gm_actions.actions_of(session, game.id) if a.action == "repair"]
    found: list[Difference] = []
    unreplayable: list[str] = []
    for before, after in steps:
        try:
            replay = _replay(before)
        except engine.IncompleteOrders as error:  # its orders do not fit its own stored board
            unreplayable.append(f"{describe_phase(before.phase)} cannot be adjudicated again from its stored board "
                                f"and orders: {error}")
            continue
        found += differences(before.phase, replay, engine.position_from_state(after.state), repairs)
    current = engine.position_from_state(queries.phases.current_record(session, game).state)
    proposals: tuple[Proposal, ...] = ()
    if queries.games.ruleset_of(game).extra_unit_repair == "mhr":  # 000 VIII(2), (3); else the GM by hand
        proposals = tuple(dict.fromkeys(p for d in found if (p := proposed_repair(d, current))))
    texts = tuple(d.describe() for d in found) + tuple(unreplayable)
    told = bool(notify and texts) and _tell_gm(session, services, game, texts, proposals, now)
    if texts:
        log.warning("%s: the audit found %d difference(s): %s", game.name, len(texts), " / ".join(texts))
    return Audit(game.name, tuple(before.phase for before, _ in steps), texts, proposals, told)


def _year(phase: str) -> int:
    return int(phase[1:5]) if len(phase) == 6 and phase[1:5].isdigit() else 0


def _replay(record: PhaseRecord):  # type: ignore[no-untyped-def]
    """The stored phase adjudicated again with the orders its results list (defaults included)."""
    orders: dict[str, list[str]] = defaultdict(list)
    for row in record.results or ():
        orders[row["power"]].append(row["order"])
    return engine.adjudicate(record.state, dict(orders), engine_decides_solo=False).after


def _tell_gm(session: Session, services: Services, game: Game, texts: tuple[str, ...],
             proposals: tuple[Proposal, ...], now: datetime) -> bool:
    lines = [f"{game.name}: replaying the stored orders of its last year, the board differs from what they give:",
             *(f"- {text}." for text in texts)]
    if proposals:
        lines += ["Under house rules 000 VIII(2), VIII(3) the repair would be (each shows its proposal; add "
                  "--confirm to do it, or by mail write the second form with \"confirm\"):",
                  *(f"{p.command(game.name)}   (by mail: {p.mail()})" for p in proposals)]
    else:
        lines.append("No repair is proposed (the unit is no longer on the board, or the house rules leave the repair "
                     "to the GM): decide by rollback or by hand.")
    return notify_gm(session, services, key=f"alert:audit:{game.id}:{game.phase}:{len(texts)}:{now.isoformat()}",
                     game_id=game.id, now=now, subject=f"{game.name}: the audit found a difference "
                                                       f"({describe_phase(game.phase)})", paragraphs=lines)
