"""Complaints about a passed draw and the one revote (002 DRAWS 5, `draw_revote_on_majority_complaint_days`;
rules/draw_complaints.py decides and says how gmserver reads the clause).

A draw passing under the option ends the game as any draw does, and opens a complaint window: a
proposals row (kind "draw_complaint", the draw's members) whose ballots are the complaints. A
COMPLAIN DRAW line reaches a finished game (rules/intake.decide `after_end`); when the complaints
are a majority, the game is reopened in the phase it stood in and the draw is put to one revote
(kind "draw_revote"), which the players vote on with the same DRAW line. Nothing is deleted: the
passed draw keeps its result, the window its complaints.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.db.session import transaction
from gmserver.reports.words import format_time
from gmserver.rules import draw_complaints as rules
from gmserver.rules import votes as vote_rules
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce
from gmserver.services.features import votes
from gmserver.services.game.endgame import GAME_OVER
from gmserver.services.game.schedule import fresh_deadline

_NOT_RECORDED = "Your complaint was not recorded: "


def open_window(session: Session, game: Game, draw: ProposalRow, ruleset: Ruleset, now: datetime) -> str | None:
    """A draw (not a revote) passing under the option: the window opens; the words every player
    reads with the end of the game, or None where the house rules hold no revote."""
    days = ruleset.draw_revote_on_majority_complaint_days
    if days is None or draw.kind != "draw":
        return None
    queries.votes.add_proposal(session, game.id, draw.phase, rules.COMPLAINT, draw.members, votes.GM, None, now)
    return rules.window_text(days, format_time(rules.window_end(now, days), game.timezone).local)


def record(session: Session, services: Services, game_id: int, power: str, inbound_id: int | None,
           now: datetime) -> str:
    """A player's COMPLAIN DRAW: what to answer, in words. A majority reopens the game for the revote."""
    game = session.get(Game, game_id)
    assert game is not None
    days = queries.games.ruleset_of(game).draw_revote_on_majority_complaint_days
    if days is None:
        return _NOT_RECORDED + "this game's house rules hold no revote on complaints about a draw."
    row = next((r for r in reversed(queries.votes.open_proposals(session, game.id)) if r.kind == rules.COMPLAINT), None)
    if row is None:
        return _NOT_RECORDED + "no draw has passed in this game that can still be complained about."
    closes = rules.window_end(row.created_at, days)
    if now > closes:  # nobody closed it before: the draw stands for good
        row.status, row.result = "failed", "no majority of the players complained in time: the draw stands"
        return _NOT_RECORDED + f"the {days} days for complaints are over, so the draw stands ({rules.CLAUSE})."
    players = _players(session, game)
    if power not in players:
        return _NOT_RECORDED + "only a player still in the game when the draw passed may complain about it."
    queries.votes.cast(session, row.id, power, "yes", inbound_id, now)
    complaints = len(set(queries.votes.ballots(session, row.id)) & players)
    if not rules.majority(complaints, len(players)):
        return rules.complaint_answer(complaints, len(players), format_time(closes, game.timezone).local)
    told = _revote(session, services, game, row, now)
    return ("Your complaint about the draw is recorded, and with it a majority of the players has complained: "
            f"the game is reopened and one revote is held ({rules.CLAUSE}); {told} players were told.")


def close_windows(services: Services, now: datetime) -> int:
    """The daemon's sweep: a window whose days are over without a majority closes, and every player
    is told the draw stands for good (002 DRAWS 5). How many mails were queued."""
    told = 0
    with transaction(services.sessions) as session:
        for row in queries.votes.open_of_kind(session, rules.COMPLAINT):
            game = session.get(Game, row.game_id)
            assert game is not None
            days = queries.games.ruleset_of(game).draw_revote_on_majority_complaint_days
            if days is not None and now <= rules.window_end(row.created_at, days):
                continue
            row.status, row.result = "failed", "no majority of the players complained in time: the draw stands"
            text = rules.final_text(days or 0)
            action = queries.gm_actions.record_action(session, game.id, "draw-final", {"proposal": row.id}, "vote",
                                                      now, text)
            told += announce(session, services, game, action.id, "the draw stands", [text], now)
    return told


def _players(session: Session, game: Game) -> frozenset[str]:
    """The powers still in the game where it stopped (the draw's electorate, 002 DRAWS 2)."""
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    return vote_rules.survivors(position.units, position.centers)


def _revote(session: Session, services: Services, game: Game, window: ProposalRow, now: datetime) -> int:
    """Reopen the game where it stopped and put the same draw to one revote; every player is told."""
    window.status, window.result = "passed", "a majority of the players complained: one revote is held"
    record = queries.phases.current_record(session, game)
    if game.phase == GAME_OVER:  # the draw passed with an adjudication: the game stood in the next phase
        record.phase = record.state["name"]
        game.phase = record.phase
    ruleset = queries.games.ruleset_of(game)
    game.status, game.paused = "active", False
    game.deadline = record.deadline = fresh_deadline(game, ruleset, now)
    row = queries.votes.add_proposal(session, game.id, game.phase, rules.REVOTE, window.members, votes.GM, None, now)
    described = vote_rules.describe(vote_rules.Proposal("draw", frozenset(window.members.split()), votes.GM, game.phase))
    action = queries.gm_actions.record_action(session, game.id, "revote", {"proposal": row.id}, "vote", now,
                                              rules.revote_text(described))
    told = announce(session, services, game, action.id, "one revote on the draw", [rules.revote_text(described)], now)
    votes.announce_proposal(session, services, game.id, votes.Recorded(votes.proposal_of(row), "yes", True, row.id),
                            ruleset, now)
    return told
