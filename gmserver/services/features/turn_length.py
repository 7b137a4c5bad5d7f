"""The turn-length vote at the start of a game (`turn_length_vote`, 003 [23] "At the
beginning of a game, the players may vote for one, two or three week deadlines. The GM may not
vote."). rules/vote_changes.py decides; this module stores and counts.

The vote is a row of the proposals table (kind "turn_length", made by nobody: proposer "GM",
members "start") made by the first ballot, in the game's first turn; each ballot is the days as
the vote's choice. It is counted when every power entitled to vote has voted, or else at the
first deadline (services/features/vote_tally._tally), and sets the game's movement turn length, which every
later deadline follows (services/game/schedule.following_deadline). A player who does not vote is not
counted; no mail names a voter's choice.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.vote_changes import DeadlineLine, turn_length_announcement, turn_length_problem, turn_length_result
from gmserver.services.features import votes
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce

KIND = "turn_length"
MEMBERS = "start"


def record(session: Session, services: Services, game_id: int, power: str, line: DeadlineLine, ruleset: Ruleset,
           inbound_id: int | None, now: datetime) -> str:
    """The power's ballot, "TURN LENGTH 14": what to answer, in words (a refusal says why)."""
    game = session.get(Game, game_id)
    assert game is not None
    if (problem := turn_length_problem(line.days, ruleset.turn_length_vote, line.choice)) is not None:
        return f"Your turn length vote was not recorded: {problem}."
    if (problem := votes.voter_problem(session, game, power, ruleset)) is not None:
        return f"Your turn length vote was not recorded: {problem}."
    row = queries.votes.find_proposal(session, game.id, game.phase, KIND, MEMBERS)
    if row is None and queries.phases.adjudicated_phases(session, game.id):
        return ("Your turn length vote was not recorded: the vote on the turn length is held in the game's first "
                "turn only (house rules 003 [23]); a change now is a DEADLINE proposal, if the house rules offer it.")
    if row is None:
        row = queries.votes.add_proposal(session, game.id, game.phase, KIND, MEMBERS, votes.GM, inbound_id, now)
    if row.status != "open":
        return "Your turn length vote was not recorded: every player has voted and the votes were counted."
    queries.votes.cast(session, row.id, power, str(line.days), inbound_id, now)
    answer = (f"Your vote for movement turns of {line.days} days is recorded. Until the votes are counted you may "
              "change it by sending another: the latest counts. No player is told how another voted.")
    if _everyone_voted(session, game, row, ruleset):
        told = announce(session, services, game, _count_now(session, game, row, ruleset, now), "the turn length",
                        [row.result or ""], now)
        answer += f" Every player has voted, so the votes were counted: {told} players were told the result."
    return answer


def _electors(session: Session, game: Game, ruleset: Ruleset) -> frozenset[str]:
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    return rules.electorate(rules.survivors(position.units, position.centers),
                            [p.power for p in game.players if p.civil_disorder], ruleset)


def _everyone_voted(session: Session, game: Game, row: ProposalRow, ruleset: Ruleset) -> bool:
    return _electors(session, game, ruleset) <= set(queries.votes.ballots(session, row.id))


def _count_now(session: Session, game: Game, row: ProposalRow, ruleset: Ruleset, now: datetime) -> int:
    """Every elector voted before the deadline: counted now, recorded like a GM action (by "vote")."""
    text = count(session, game, row, ruleset, game.phase)
    return queries.gm_actions.record_action(session, game.id, "turn-length", {"proposal": row.id}, "vote", now,
                                            text).id


def count(session: Session, game: Game, row: ProposalRow, ruleset: Ruleset, phase: str) -> str:
    """003 [23]: the most-voted length wins, a tie to the longer; it sets the game's movement turn
    length for the turns to come. The announcement, in words (never who chose what)."""
    electors = _electors(session, game, ruleset)
    ballots = {power: int(days) for power, days in queries.votes.ballots(session, row.id).items()
               if power in electors and days.isdigit()}
    days = turn_length_result(ballots, tuple(ruleset.turn_length_vote or ()))
    text = turn_length_announcement(days, game.movement_seconds / 86400)
    if days is not None:
        game.movement_seconds = days * 86400
    row.status, row.result, row.tallied_phase = ("passed" if days else "failed"), text, phase
    return text
