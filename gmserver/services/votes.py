"""Votes by mail and their tally at the deadline (MATRIX 2.10; rules/votes.py decides).

A vote line records a proposal or a ballot in the mail's transaction; the tally runs inside the
adjudication's transaction (services/turns.adjudicate calls `tally_due` after the outcome), so a
proposal is tallied exactly once, with the phase. No mail from here names a voter's vote.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.context import Services
from gmserver.services.gm_mail import announce  # the GM-action mail to every player
from gmserver.services.outbox import queue_all
from gmserver.services.endgame import GAME_OVER

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


def members_key(members: frozenset[str]) -> str:
    return " ".join(sorted(members))


def record(session: Session, game_id: int, power: str, line: rules.VoteLine, ruleset: Ruleset,
           inbound_id: int | None, now: datetime) -> Recorded | str:
    """Record the line of `power`: a new proposal (its author voting Yes) or a ballot on one made
    this turn. A readable refusal instead."""
    game = session.get(Game, game_id)
    assert game is not None
    if game.status != "active":
        return "the game is over: there is nothing left to vote on"
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    alive = rules.survivors(position.units, position.centers)
    if power not in alive:  # voter_eligibility = units_or_centres (002 DRAWS 2)
        return f"{power.title()} has no unit and no supply centre left, so it has no vote"
    members = rules.resolve_members(line, alive, ruleset)
    if isinstance(members, str):
        return members
    row = queries.votes.find_proposal(session, game.id, game.phase, line.kind, members_key(members))
    made = row is None
    if row is None:
        if line.choice != "yes":
            return (f"nobody has proposed {rules.describe(rules.Proposal(line.kind, members, power, game.phase))} "
                    "this turn: there is nothing to vote against")
        limit = ruleset.end_proposals_per_player_per_turn
        if limit is not None and queries.votes.proposals_by(session, game.id, game.phase, power) >= limit:
            # 001 VIII(4) ¶3: one proposal to end the game per player per turn
            return (f"you have made {limit} proposal{'s' if limit > 1 else ''} to end the game this turn, "
                    "as many as the house rules allow (001 VIII(4))")
        row = queries.votes.add_proposal(session, game.id, game.phase, line.kind, members_key(members), power,
                                         inbound_id, now)
    queries.votes.cast(session, row.id, power, line.choice, inbound_id, now)
    return Recorded(_proposal(row), line.choice, made, row.id)


_SILENCE = {"yes": "counts as a vote for it", "no": "counts as a vote against it",
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
    keyword = "CONCEDE" if proposal.kind == "concession" else "DRAW"
    line = " ".join([keyword, *sorted(p.title() for p in proposal.members)])
    rules_of_kind = rules.kind_rules(proposal.kind, ruleset)
    body = services.composer.render("player/proposal.txt.j2", {
        "game_name": game.name, "proposal": rules.describe(proposal), "line": line,
        "proposer": None if ruleset.proposer_anonymous else proposal.proposer.title(),
        "silence": _SILENCE[rules_of_kind.uncast], "abstention": _SILENCE[rules_of_kind.abstention],
        "after_winter": ruleset.fall_proposals_resolved_after_winter and proposal.phase[:1] == "F",
    })
    messages = []
    for player in game.players:
        if player.power not in alive:
            continue
        subject = format_subject(template=ruleset.subject_template, game_name=game.name, power=player.power,
                                 phase=game.phase, purpose="orders")
        message = services.composer.compose(to=player.address, subject=f"Proposal: {subject}", body=body,
                                            auto_submitted="auto-generated", date=now, reply_secret=player.secret)
        messages.append((message, f"proposal:{recorded.proposal_id}:{player.power}"))
    return queue_all(session, messages, kind="vote", now=now, game_id=game.id)


def _proposal(row: ProposalRow) -> rules.Proposal:
    return rules.Proposal(row.kind, frozenset(row.members.split()), row.proposer, row.phase)


def tally_before(session: Session, game: Game, ruleset: Ruleset, now: datetime) -> VoteResults:
    """vote_publication = instead_if_passed (000 IX(4), MATRIX 2.10): at the deadline, before the
    turn is adjudicated, the proposals made in it are tallied on the position as it stands; a
    passed draw or concession replaces the adjudication (`end_by_vote`). Fall proposals under
    `fall_proposals_resolved_after_winter` wait for the Winter adjustments (`tally_due`)."""
    if ruleset.vote_publication != "instead_if_passed":
        return VoteResults()
    open_rows = queries.votes.open_proposals(session, game.id)
    due_rows = [row for row in open_rows if row.phase == game.phase
                and not (ruleset.fall_proposals_resolved_after_winter and row.phase[:1] == "F")]
    if not due_rows:
        return VoteResults()
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    return _tally(game, ruleset, due_rows, open_rows, rules.survivors(position.units, position.centers), game.phase,
                  session)


def end_by_vote(session: Session, services: Services, game: Game, results: VoteResults, now: datetime) -> int:
    """instead_if_passed: the game ends where it stands, its turn not adjudicated; every player is
    told (recorded like the GM's `game end`, by "vote"). How many mails were queued."""
    assert results.ended is not None
    game.status, game.deadline, game.paused = "finished", None, False
    row = queries.gm_actions.record_action(session, game.id, "end", {"phase": game.phase, "by": "vote"}, "vote", now,
                                           results.ended)
    return announce(session, services, game, row.id, "the game has ended by vote", [
        *results.announcements, results.ended,
        f"The game ends where it stood before the deadline: the {describe_phase(game.phase)} orders were not "
        "adjudicated, the result of the vote being published instead (house rules 000 IX(4)).",
    ], now)


def tally_due(session: Session, game: Game, ruleset: Ruleset, processed: Sequence[PhaseOutcome],
              now: datetime, earlier: VoteResults = VoteResults()) -> VoteResults:
    """Tally the open proposals due after the phases just adjudicated (`processed`, in order; the
    last one's `after` is where the game now stands); `earlier`: those tallied before the
    adjudication (`tally_before`), reported with these. A solo won this turn voids them all (002
    DRAWS 3: a player with 18 centres after Winter wins regardless)."""
    last = processed[-1]
    open_rows = queries.votes.open_proposals(session, game.id)
    if last.winners or not open_rows:
        _close(open_rows, "void", "void: the game was won outright", last.phase)
        return earlier
    due_rows = [row for row in open_rows
                if any(rules.due(row.phase, o.phase, o.after.phase, ruleset) for o in processed)]
    results = _tally(game, ruleset, due_rows, open_rows, rules.survivors(last.after.units, last.after.centers),
                     last.phase, session)
    return VoteResults(earlier.announcements + results.announcements, results.ended)


def _tally(game: Game, ruleset: Ruleset, due_rows: Sequence[ProposalRow], open_rows: Sequence[ProposalRow],
           alive: frozenset[str], phase: str, session: Session) -> VoteResults:
    """A16 on the rows due, with `alive` the powers still in the game; each row is closed."""
    if not due_rows:
        return VoteResults()
    electors = rules.electorate(alive, [p.power for p in game.players if p.civil_disorder], ruleset)
    tallies, texts = [], {}
    for row in due_rows:
        proposal = rules.amend(_proposal(row), alive, ruleset)  # 002 DRAWS 3
        if isinstance(proposal, str):
            _close([row], "void", proposal, phase)
            described = rules.describe(_proposal(row))
            texts[row.id] = f"{described[0].upper()}{described[1:]} is {proposal}."
            continue
        ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items() if power in alive}
        tallies.append((row, rules.tally(proposal, electors, ballots, ruleset)))
    settled = rules.settle([t for _, t in tallies], ruleset)
    ended = None
    for (row, _), result in zip(tallies, settled):
        _close([row], "passed" if result.passed else "failed", result.reason, phase)
        texts[row.id] = rules.announcement(result, ruleset)
        if result.passed and result.proposal.kind in rules.GAME_ENDING:
            ended = f"The game has ended by vote: {rules.describe(result.proposal)}."
    if ended is not None:  # whatever else was still open has no game left to end
        _close([r for r in open_rows if r.status == "open"], "void", "void: the game ended", phase)
    log.info("%s: %d proposal(s) tallied in %s%s", game.name, len(texts), phase, f"; {ended}" if ended else "")
    return VoteResults(tuple(texts[row.id] for row in open_rows if row.id in texts), ended)


def _close(rows: Sequence[ProposalRow], status: str, result: str, phase: str) -> None:
    for row in rows:
        row.status, row.result, row.tallied_phase = status, result, phase


def finish(outcome: PhaseOutcome, results: VoteResults) -> PhaseOutcome:
    """The outcome of a game a vote ended: its next phase is the end (as a solo's is)."""
    if results.ended is None:
        return outcome
    return dataclasses.replace(outcome, after=dataclasses.replace(outcome.after, phase=GAME_OVER))
