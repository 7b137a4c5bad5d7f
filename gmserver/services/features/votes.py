"""Votes by mail (rules/votes.py decides).

A vote line records a proposal or a ballot in the mail's transaction; the tally at the deadline
is services/features/vote_tally.py. No mail from here names a voter's vote. The
GM's part (veto, proposals, the GM's own vote) is services/features/vote_gm.py; the turn-length vote at the
start services/features/turn_length.py; complaints about a passed draw services/features/draw_complaints.py.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.subject import format_subject
from gmserver.rules.vote_changes import DeadlineLine, TermsLine, deadline_problem, terms_key
from gmserver.services.base import outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue_all
from gmserver.services.base.reply_tokens import token_of
from gmserver.services.base.roster import in_play

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Recorded:
    proposal: rules.Proposal
    choice: str
    made: bool  # this line made the proposal (its author votes Yes)
    proposal_id: int


@dataclass(frozen=True)
class VoteResults:
    announcements: tuple[str, ...] = ()  # for the turn report, in words
    ended: str | None = None  # how the game ended, when a proposal ended it
    rule_changes: tuple[int, ...] = ()  # passed rule changes, for the GM to apply (000 IX(3))


def members_key(members: frozenset[str]) -> str:
    return " ".join(sorted(members))


def record(session: Session, game_id: int, power: str, line: rules.VoteLine, ruleset: Ruleset,
           inbound_id: int | None, now: datetime) -> Recorded | str:
    """Record the line of `power`: a new proposal (its author voting Yes) or a ballot on one made
    this turn. A readable refusal instead."""
    game = session.get(Game, game_id)
    assert game is not None
    if (problem := voter_problem(session, game, power, ruleset)) is not None:
        return problem
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    members = rules.resolve_members(line, rules.survivors(position.units, position.centers), ruleset)
    if isinstance(members, str):
        return members
    return _propose_or_vote(session, game, power, line.kind, members, line.choice, ruleset, inbound_id, now)


def voter_problem(session: Session, game: Game, power: str, ruleset: Ruleset) -> str | None:
    """Why `power` may not vote now, in words (None: it may)."""
    if game.status != "active":
        return "the game is over: there is nothing left to vote on"
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    if power not in rules.survivors(position.units, position.centers):  # units_or_centres (002 DRAWS 2)
        return f"{power.title()} has no unit and no supply centre left, so it has no vote"
    if not ruleset.cd_powers_vote and power in {p.power for p in game.players if p.civil_disorder}:
        # 003 [18] ¶2: powers in civil disorder do not vote; the GM takes them out of it
        return (f"{power.title()} is in civil disorder, and under the house rules a power in civil disorder "
                "does not vote (003 [18]); ask the GM to take it out of civil disorder")
    return None


def record_terms(session: Session, game_id: int, power: str, kind: str, line: TermsLine, ruleset: Ruleset,
                 inbound_id: int | None, now: datetime) -> Recorded | str:
    """A worded proposal (a rule change, 000 IX(3); an end on any terms, 003 [18] ¶1), made by its
    words, or a ballot on one by its number. A readable refusal instead."""
    game = session.get(Game, game_id)
    assert game is not None
    if (problem := voter_problem(session, game, power, ruleset)) is not None:
        return problem
    if line.number is None:
        return _propose_or_vote(session, game, power, kind, frozenset({terms_key(line.terms)}), "yes", ruleset,
                                inbound_id, now, line.terms)
    row = session.get(ProposalRow, line.number)
    if row is None or row.game_id != game.id or row.kind != kind:
        return f"this game has no proposal {line.number} of that kind"
    if row.status != "open":
        return f"proposal {line.number} was {row.status} and is no longer put to the vote"
    queries.votes.cast(session, row.id, power, line.choice, inbound_id, now)
    return Recorded(_proposal(row), line.choice, False, row.id)


def record_deadline(session: Session, game_id: int, power: str, line: DeadlineLine, ruleset: Ruleset,
                    inbound_id: int | None, now: datetime) -> Recorded | str:
    """deadline_change (003 [18] ¶2 "a permanent deadline change ... by unanimous decision of the
    players"): a proposal of a new movement turn length, or a ballot on one made this turn."""
    game = session.get(Game, game_id)
    assert game is not None
    if game.status != "active":
        return "the game is over: there is nothing left to vote on"
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    if power not in rules.survivors(position.units, position.centers):
        return f"{power.title()} has no unit and no supply centre left, so it has no vote"
    if not ruleset.cd_powers_vote and power in {p.power for p in game.players if p.civil_disorder}:
        return ("countries in anarchy may not vote on a deadline change (house rules 003 [18]); "
                "ask the GM to take your power out of civil disorder")
    if problem := deadline_problem(line.days, ruleset.min_hours_movement, ruleset.turn_length_vote):
        return problem
    return _propose_or_vote(session, game, power, "deadline_change", frozenset({str(line.days)}), line.choice,
                            ruleset, inbound_id, now)


def _propose_or_vote(session: Session, game: Game, power: str, kind: str, members: frozenset[str], choice: str,
                     ruleset: Ruleset, inbound_id: int | None, now: datetime, terms: str | None = None
                     ) -> Recorded | str:
    row = queries.votes.find_proposal(session, game.id, game.phase, kind, members_key(members))
    if kind == "draw":  # 002 DRAWS 5: the same DRAW line votes on the one revote of a passed draw
        revote = queries.votes.find_proposal(session, game.id, game.phase, "draw_revote", members_key(members))
        row = revote if revote is not None and revote.status == "open" else row
    made = row is None
    if row is None:
        if choice != "yes":
            described = rules.describe(rules.Proposal(kind, members, power, game.phase, terms or ""))
            return (f"nobody has proposed {described} "
                    "this turn: there is nothing to vote against")
        limit = ruleset.end_proposals_per_player_per_turn
        if (limit is not None and kind in rules.GAME_ENDING
                and queries.votes.proposals_by(session, game.id, game.phase, power) >= limit):
            # 001 VIII(4) ¶3: one proposal to end the game per player per turn
            return (f"you have made {limit} proposal{'s' if limit > 1 else ''} to end the game this turn, "
                    "as many as the house rules allow (001 VIII(4))")
        row = queries.votes.add_proposal(session, game.id, game.phase, kind, members_key(members), power,
                                         inbound_id, now, terms)
    elif row.status != "open":  # vetoed by the GM (000 IX(5)): not put to the vote
        return f"{rules.describe(_proposal(row))} was {row.status} this turn and is not put to the vote"
    queries.votes.cast(session, row.id, power, choice, inbound_id, now)
    return Recorded(_proposal(row), choice, made, row.id)


GM = "GM"  # the proposer of a proposal the GM made (gm_may_propose)
SILENCE = {"yes": "counts as a vote for it", "no": "counts as a vote against it",
            "excluded": "is not counted"}


def announce_proposal(session: Session, services: Services, game_id: int, recorded: Recorded,
                      ruleset: Ruleset, now: datetime) -> int:
    """Tell every power still in the game that a proposal was made, so that each can vote on it;
    the proposer is named only where `proposer_anonymous` is false (000 IX(4)), and everyone,
    the proposer too, gets the same mail."""
    game = session.get(Game, game_id)
    assert game is not None
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    alive = rules.survivors(position.units, position.centers)
    proposal = recorded.proposal
    keyword = {"concession": "CONCEDE", "deadline_change": "DEADLINE", "rule_change": "RULE CHANGE",
               "end_game_any_terms": "END GAME"}.get(proposal.kind, "DRAW")
    if proposal.kind in rules.WORDED:  # a ballot names the proposal by its number: "RULE CHANGE 12"
        line = f"{keyword} {recorded.proposal_id}"
    else:
        line = " ".join([keyword, *sorted(p.title() for p in proposal.members)])  # "DEADLINE 14" too
    rules_of_kind = rules.kind_rules(proposal.kind, ruleset)
    body = services.composer.render("player/proposal.txt.j2", {
        "game_name": game.name, "proposal": rules.describe(proposal), "line": line,
        "proposer": None if ruleset.proposer_anonymous else rules.proposer_name(proposal),
        "silence": SILENCE[rules_of_kind.uncast], "abstention": SILENCE[rules_of_kind.abstention],
        "after_winter": ruleset.fall_proposals_resolved_after_winter and proposal.phase[:1] == "F",
        "gm_votes": rules.rule_change_clause(ruleset) if rules_of_kind.gm_must_agree else None,
        "gm_applies": proposal.kind == "rule_change",
    })
    messages = []
    for player in in_play(game.players):
        if player.power not in alive:
            continue
        subject = format_subject(template=ruleset.subject_template, game_name=game.name, power=player.power,
                                 phase=game.phase, purpose="orders")
        message = outgoing.message(services, to=player.address, subject=f"Proposal: {subject}", body=body, now=now,
                                   secret=token_of(player, game.phase))
        messages.append((message, f"proposal:{recorded.proposal_id}:{player.power}"))
    return queue_all(session, messages, kind="vote", now=now, game_id=game.id)


def proposal_of(row: ProposalRow) -> rules.Proposal:
    return _proposal(row)


def _proposal(row: ProposalRow) -> rules.Proposal:
    return rules.Proposal(row.kind, frozenset(row.members.split()), row.proposer, row.phase, row.terms or "")


def close(rows: Sequence[ProposalRow], status: str, result: str, phase: str) -> None:
    for row in rows:
        row.status, row.result, row.tallied_phase = status, result, phase
