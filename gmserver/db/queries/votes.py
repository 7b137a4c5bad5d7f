"""Proposals to end the game and the ballots on them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from gmserver.db.models import ProposalRow, VoteRow


def find_proposal(session: Session, game_id: int, phase: str, kind: str, members: str) -> ProposalRow | None:
    return session.scalar(select(ProposalRow).where(
        ProposalRow.game_id == game_id, ProposalRow.phase == phase, ProposalRow.kind == kind,
        ProposalRow.members == members))


def proposals_by(session: Session, game_id: int, phase: str, power: str) -> int:
    """How many proposals `power` made in the turn (end_proposals_per_player_per_turn)."""
    return session.scalar(select(func.count(ProposalRow.id)).where(
        ProposalRow.game_id == game_id, ProposalRow.phase == phase, ProposalRow.proposer == power)) or 0


def add_proposal(session: Session, game_id: int, phase: str, kind: str, members: str, proposer: str,
                 inbound_id: int | None, now: datetime, terms: str | None = None) -> ProposalRow:
    row = ProposalRow(game_id=game_id, phase=phase, kind=kind, members=members, proposer=proposer,
                      inbound_id=inbound_id, created_at=now, status="open", terms=terms)
    session.add(row)
    session.flush()
    return row


def cast(session: Session, proposal_id: int, power: str, choice: str, inbound_id: int | None, now: datetime) -> None:
    """The power's ballot; a later one replaces it (revised_votes = allowed: the latest counts)."""
    row = session.scalar(select(VoteRow).where(VoteRow.proposal_id == proposal_id, VoteRow.power == power))
    if row is None:
        session.add(VoteRow(proposal_id=proposal_id, power=power, choice=choice, inbound_id=inbound_id, cast_at=now))
    else:
        row.choice, row.inbound_id, row.cast_at = choice, inbound_id, now
    session.flush()


def open_proposals(session: Session, game_id: int) -> list[ProposalRow]:
    return list(session.scalars(select(ProposalRow).where(
        ProposalRow.game_id == game_id, ProposalRow.status == "open").order_by(ProposalRow.id)))


def ballots(session: Session, proposal_id: int) -> dict[str, str]:
    return {row.power: row.choice for row in session.scalars(select(VoteRow).where(VoteRow.proposal_id == proposal_id))}


def open_of_kind(session: Session, kind: str) -> list[ProposalRow]:
    """Every game's open rows of `kind` (the complaint windows of 002 DRAWS 5), oldest first."""
    return list(session.scalars(select(ProposalRow).where(
        ProposalRow.kind == kind, ProposalRow.status == "open").order_by(ProposalRow.id)))


def decided_proposals(session: Session, game_id: int) -> list[ProposalRow]:
    """The game's proposals that were tallied (passed, failed or void), oldest first."""
    return list(session.scalars(select(ProposalRow).where(
        ProposalRow.game_id == game_id, ProposalRow.status != "open").order_by(ProposalRow.id)))


def passed_draws(session: Session, game_id: int) -> list[ProposalRow]:
    """The game's draws voted through (their `members`: the powers, space-separated)."""
    return list(session.scalars(select(ProposalRow).where(
        ProposalRow.game_id == game_id, ProposalRow.kind == "draw", ProposalRow.status == "passed")))
