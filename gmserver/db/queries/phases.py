"""Phase records: one row per phase a game reached, with its state, orders and results."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, exists, func, insert, select
from sqlalchemy.orm import Session, selectinload

from gmserver.db.models import AbsenceRow, Game, PhaseRecord, Press, ProposalRow, Proxy, Signup
from gmserver.db.queries.absences import IN_FORCE
from gmserver.db.queries.rows import (
    READS_AROUND_HELD_WRITES,
    held_inserts,
    holding,
    insert_later,
    keep_read_ahead,
    plain_rows,
    read_ahead,
)

_PHASE_RECORD = select(PhaseRecord).where(PhaseRecord.game_id == bindparam("game_id"),
                                          PhaseRecord.phase == bindparam("phase"))  # built once: each mail asks


def phase_record(session: Session, game_id: int, phase: str) -> PhaseRecord | None:
    return session.scalar(_PHASE_RECORD, {"game_id": game_id, "phase": phase})


_PHASES_TABLE = PhaseRecord.__table__.c
_STATE_AND_REVISION = select(_PHASES_TABLE.state, _PHASES_TABLE.revision).where(
    _PHASES_TABLE.game_id == bindparam("game_id"), _PHASES_TABLE.phase == bindparam("phase"))  # built once


def state_and_revision(session: Session, game_id: int, phase: str) -> Row | None:
    """`phase_record`'s state and revision alone, as a plain row: filing a set reads nothing
    else of the record, and the ORM's object of it cost more than the statement."""
    return plain_rows(session, _STATE_AND_REVISION, {"game_id": game_id, "phase": phase}).first()


def current_record(session: Session, game: Game) -> PhaseRecord:
    """The record of the phase the game is in (every game has one from its creation)."""
    record = phase_record(session, game.id, game.phase)
    assert record is not None, f"{game.name} has no record of its phase {game.phase}"
    return record


@dataclass(frozen=True)
class Besides:
    """What a game has beside its order sets that a deadline reads: proxies, open
    proposals, press waiting for a report, observers to send the report to, absences registered
    (which may move the next deadline). Most games have none
    of them at a deadline, so the deadline asks once, with the phase record, instead of querying
    each, and reads the rows only where there are some."""

    proxies: bool
    open_proposals: bool
    press_for_report: bool
    observers: bool = True  # unknown: read them
    absences: bool = True


def _besides(game_id: Any, game_name: Any) -> tuple[Any, ...]:
    """`Besides`'s questions, each an EXISTS on an indexed column, for the game `game_id`, `game_name`."""
    return (exists().where(Proxy.game_id == game_id),
            exists().where(ProposalRow.game_id == game_id, ProposalRow.status == "open"),
            exists().where(Press.game_id == game_id, Press.status == "report"),
            exists().where(Signup.game_name == game_name, Signup.kind == "observe", Signup.status == "confirmed"),
            exists().where(AbsenceRow.game_id == game_id, *IN_FORCE))


# built once (each deadline claims its game with one of them): the game's row locked (FOR UPDATE
# OF games; with SKIP LOCKED, no row while another transaction holds it), its current phase's
# record and what it has besides, in one statement
_CLAIM_AT_DEADLINE = {skip: select(Game, PhaseRecord, *_besides(Game.id, Game.name))
                      .outerjoin(PhaseRecord, (PhaseRecord.game_id == Game.id) & (PhaseRecord.phase == Game.phase))
                      .where(Game.id == bindparam("game_id")).with_for_update(of=Game, skip_locked=skip)
                      for skip in (False, True)}


Claim = tuple[Game, PhaseRecord | None, Besides]


def claim_at_deadline(session: Session, game_id: int, *, skip_locked: bool) -> Claim | None:
    """`games.game_for_update`, with the record of the game's current phase and what the game
    has besides (`Besides`), in one statement: None as game_for_update gives it."""
    row = session.execute(_CLAIM_AT_DEADLINE[skip_locked], {"game_id": game_id}).one_or_none()
    return None if row is None else _claim(row)


def _claim(row: Any) -> Claim:
    game, record, proxies, proposals, press, observers, absences = row
    return game, record, Besides(bool(proxies), bool(proposals), bool(press), bool(observers), bool(absences))


# built once (each batch of due games claims them with it): `_CLAIM_AT_DEADLINE` for several
# games, with SKIP LOCKED, their players loaded (every report is addressed to them)
_CLAIM_ALL_AT_DEADLINE = (select(Game, PhaseRecord, *_besides(Game.id, Game.name))
                          .outerjoin(PhaseRecord, (PhaseRecord.game_id == Game.id) & (PhaseRecord.phase == Game.phase))
                          .where(Game.id.in_(bindparam("game_ids", expanding=True)))
                          .options(selectinload(Game.players)).with_for_update(of=Game, skip_locked=True))


def claim_all_at_deadline(session: Session, game_ids: list[int]) -> dict[int, Claim]:
    """`claim_at_deadline` (skipping the locked ones) of every game of `game_ids`, in two statements
    (the second loads their players): game id -> what it gives, the locked and the missing left out."""
    if not game_ids:
        return {}
    return {claim[0].id: claim for claim in map(_claim, session.execute(_CLAIM_ALL_AT_DEADLINE,
                                                                        {"game_ids": game_ids}))}


def adjudicated_phases(session: Session, game_id: int) -> list[str]:
    """The phases of the game adjudicated so far, in order."""
    return list(session.scalars(select(PhaseRecord.phase).where(PhaseRecord.game_id == game_id,
                                                                PhaseRecord.adjudicated_at.is_not(None))
                                .order_by(PhaseRecord.id)))


def adjudicated_records(session: Session, game_id: int) -> list[PhaseRecord]:
    """The records of the game's adjudicated phases, in order (their orders and results are public)."""
    return list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id,
                                                          PhaseRecord.adjudicated_at.is_not(None))
                                .order_by(PhaseRecord.id)))


def open_phase(session: Session, game_id: int, phase: str, state: dict[str, Any], deadline: datetime | None,
               now: datetime) -> PhaseRecord:
    """Record that the game entered `phase` at `now`, with the engine's state for it."""
    record = PhaseRecord(game_id=game_id, phase=phase, state=state, deadline=deadline, opened_at=now)
    session.add(record)
    return record


# built once, on the table (its columns are named as the record's fields): the ORM's INSERT of
# plain values costs as much again on the client
_OPEN_PHASE = insert(PhaseRecord.__table__)


def open_next_phase(session: Session, game_id: int, phase: str, state: dict[str, Any], deadline: datetime | None,
                    now: datetime) -> None:
    """`open_phase` for a caller that does not use the record: one INSERT, not an ORM object
    (the deadline's next phase; held with a batch's other writes, `rows.held_writes`). It
    depends on no change waiting in the session, so it does not flush them: they go with the
    transaction's one flush."""
    insert_later(session, _OPEN_PHASE, {"game_id": game_id, "phase": phase, "state": state, "deadline": deadline,
                                        "opened_at": now})


_LAST_ADJUDICATED_AT = (select(func.max(PhaseRecord.adjudicated_at))
                        .where(PhaseRecord.game_id == bindparam("game_id")))  # built once: each mail asks


def last_adjudicated_at(session: Session, game_id: int) -> datetime | None:
    """When the game's latest phase was adjudicated: when its current phase started."""
    return session.scalar(_LAST_ADJUDICATED_AT, {"game_id": game_id})


_ADJUDICATIONS = (select(PhaseRecord.id, PhaseRecord.phase, PhaseRecord.adjudicated_at)
                  .where(PhaseRecord.game_id == bindparam("game_id")).order_by(PhaseRecord.id.desc()))


def phases_of_last_adjudication(session: Session, game_id: int, phase: str) -> list[str] | None:
    """The phases `last_adjudication` gives for the record of `phase` (None if the game has no
    such record), read as three narrow columns in one statement: every mail to a reply address
    asks, and the records' states are not needed for it."""
    rows = session.execute(_ADJUDICATIONS, {"game_id": game_id}).all()
    current = next((row.id for row in rows if row.phase == phase), None)
    if current is None:
        return None
    before = [row for row in rows if row.id < current]
    if not before or before[0].adjudicated_at is None:
        return [row.phase for row in before[:1]]
    return [row.phase for row in reversed(before) if row.adjudicated_at == before[0].adjudicated_at]


def last_adjudication(session: Session, game_id: int, record_id: int) -> list[PhaseRecord]:
    """The records adjudicated by the game's last adjudication before record `record_id`, in
    order: one phase, or several adjudicated together in one transaction (003 [5]'s two-season
    year processes the retreats and builds with the moves); empty if there is none."""
    before = list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id,
                                                            PhaseRecord.id < record_id)
                                  .order_by(PhaseRecord.id.desc())))
    if not before or before[0].adjudicated_at is None:
        return before[:1]
    together = [record for record in before if record.adjudicated_at == before[0].adjudicated_at]
    return list(reversed(together))


_PHASES = PhaseRecord.__table__.c
_SPRING_CENTRES = select(_PHASES.phase, _PHASES.state["centers"]).where(  # built once: each report asks
    _PHASES.game_id == bindparam("game_id"), _PHASES.phase.like("S____M")).order_by(_PHASES.id).execution_options(
    **{READS_AROUND_HELD_WRITES: (_OPEN_PHASE,)})  # the phases opened and held are added to it


def spring_centres(session: Session, game_id: int) -> list[tuple[str, dict[str, list[str]]]]:
    """(phase, power -> supply centres) at the start of each game year reached so far (the
    Spring movement phases), oldest first: the centres alone, not each year's whole state.
    Within `rows.held_writes`, as read ahead for the batch (`read_spring_centres_ahead`), and
    with those of the phases opened and held added as the database will give them, without
    sending the writes for it."""
    ahead = read_ahead(session, _SPRING_CENTRES_AHEAD)
    stored = ahead.get(game_id) if ahead is not None else None
    if stored is None:
        stored = [(phase, centres) for phase, centres in plain_rows(session, _SPRING_CENTRES, {"game_id": game_id})]
    return stored + [(row["phase"], json.loads(json.dumps(row["state"]["centers"])))
                     for row in held_inserts(session, _OPEN_PHASE)
                     if row["game_id"] == game_id and _is_spring_movement(row["phase"])]


_SPRING_CENTRES_AHEAD = "spring_centres"
_SPRING_CENTRES_OF_GAMES = (select(_PHASES.game_id, _PHASES.phase, _PHASES.state["centers"])
                            .where(_PHASES.game_id.in_(bindparam("game_ids", expanding=True)),
                                   _PHASES.phase.like("S____M")).order_by(_PHASES.id))


def read_spring_centres_ahead(session: Session, game_ids: list[int]) -> None:
    """Within `rows.held_writes`, `spring_centres` of every game of `game_ids` in one statement,
    for a batch of deadlines (each report's centre chart asks)."""
    if holding(session) is None or not game_ids:
        return
    by_game: dict[int, list[tuple[str, dict[str, list[str]]]]] = {game_id: [] for game_id in game_ids}
    for game_id, phase, centres in plain_rows(session, _SPRING_CENTRES_OF_GAMES, {"game_ids": game_ids}):
        by_game[game_id].append((phase, centres))
    keep_read_ahead(session, _SPRING_CENTRES_AHEAD, _SPRING_CENTRES_OF_GAMES, by_game, adds=(_OPEN_PHASE,))


def _is_spring_movement(phase: str) -> bool:
    """Whether `phase` is one `_SPRING_CENTRES` reads (LIKE "S____M")."""
    return len(phase) == 6 and phase[0] == "S" and phase[-1] == "M"


def spring_states(session: Session, game_id: int) -> list[dict[str, Any]]:
    """The engine state at the start of each game year reached so far (the Spring movement
    phases), oldest first."""
    return list(session.scalars(select(PhaseRecord.state).where(
        PhaseRecord.game_id == game_id, PhaseRecord.phase.like("S____M")).order_by(PhaseRecord.id)))


def last_adjudicated(session: Session, game_id: int) -> PhaseRecord | None:
    """The record of the phase the game adjudicated last (None before its first adjudication)."""
    return session.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game_id,
                                                    PhaseRecord.adjudicated_at.is_not(None))
                          .order_by(PhaseRecord.id.desc()).limit(1))


def records_of(session: Session, game_id: int) -> list[PhaseRecord]:
    """Every record of the game, adjudicated or not, in the order the game reached them."""
    return list(session.scalars(select(PhaseRecord).where(PhaseRecord.game_id == game_id).order_by(PhaseRecord.id)))
