"""Votes by mail and their tally at the deadline (MATRIX 2.10; rules/votes.py decides).

A vote line records a proposal or a ballot in the mail's transaction; the tally runs inside the
adjudication's transaction (services/turns.adjudicate calls `tally_due` after the outcome), so a
proposal is tallied exactly once, with the phase. No mail from here names a voter's vote.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.vote_changes import DeadlineLine, deadline_problem
from gmserver.rules.subject import format_subject
from gmserver.services.context import Services
from gmserver.services.games import GameError
from gmserver.services.gm_controls import Done
from gmserver.services.gm_mail import announce  # the GM-action mail to every player
from gmserver.services.gm_notices import notify_gm
from gmserver.services.outbox import queue_all
from gmserver.services.press import disclose_authors
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
    if not ruleset.cd_powers_vote and power in {p.power for p in game.players if p.civil_disorder}:
        # 003 [18] ¶2: powers in civil disorder do not vote; the GM takes them out of it
        return (f"{power.title()} is in civil disorder, and under the house rules a power in civil disorder "
                "does not vote (003 [18]); ask the GM to take it out of civil disorder")
    members = rules.resolve_members(line, alive, ruleset)
    if isinstance(members, str):
        return members
    return _propose_or_vote(session, game, power, line.kind, members, line.choice, ruleset, inbound_id, now)


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
                     ruleset: Ruleset, inbound_id: int | None, now: datetime) -> Recorded | str:
    row = queries.votes.find_proposal(session, game.id, game.phase, kind, members_key(members))
    made = row is None
    if row is None:
        if choice != "yes":
            return (f"nobody has proposed {rules.describe(rules.Proposal(kind, members, power, game.phase))} "
                    "this turn: there is nothing to vote against")
        limit = ruleset.end_proposals_per_player_per_turn
        if (limit is not None and kind in rules.GAME_ENDING
                and queries.votes.proposals_by(session, game.id, game.phase, power) >= limit):
            # 001 VIII(4) ¶3: one proposal to end the game per player per turn
            return (f"you have made {limit} proposal{'s' if limit > 1 else ''} to end the game this turn, "
                    "as many as the house rules allow (001 VIII(4))")
        row = queries.votes.add_proposal(session, game.id, game.phase, kind, members_key(members), power,
                                         inbound_id, now)
    elif row.status != "open":  # vetoed by the GM (000 IX(5)): not put to the vote
        return f"{rules.describe(_proposal(row))} was {row.status} this turn and is not put to the vote"
    queries.votes.cast(session, row.id, power, choice, inbound_id, now)
    return Recorded(_proposal(row), choice, made, row.id)


GM = "GM"  # the proposer of a proposal the GM made (gm_may_propose)
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
    keyword = {"concession": "CONCEDE", "deadline_change": "DEADLINE"}.get(proposal.kind, "DRAW")
    line = " ".join([keyword, *sorted(p.title() for p in proposal.members)])  # "DEADLINE 14" too
    rules_of_kind = rules.kind_rules(proposal.kind, ruleset)
    body = services.composer.render("player/proposal.txt.j2", {
        "game_name": game.name, "proposal": rules.describe(proposal), "line": line,
        "proposer": None if ruleset.proposer_anonymous else rules.proposer_name(proposal),
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


def tell_gm(session: Session, services: Services, game_id: int, recorded: Recorded, ruleset: Ruleset,
            now: datetime) -> bool:
    """proposal_gm_veto (000 IX(5) "the GM ... may refuse to conduct votes on repetitive or humorous
    proposals", 001 VIII(4) ¶2): the GM hears of each proposal, with the command that vetoes it."""
    if not ruleset.proposal_gm_veto:
        return False
    game = session.get(Game, game_id)
    assert game is not None
    number = recorded.proposal_id
    return notify_gm(session, services, key=f"gm:proposal:{number}", game_id=game.id, now=now,
                     subject=f"gmserver: {game.name}: proposal {number}: {rules.describe(recorded.proposal)}",
                     paragraphs=[
                         f"Game {game.name}, {describe_phase(recorded.proposal.phase)}: "
                         f"{recorded.proposal.proposer.title()} proposed {rules.describe(recorded.proposal)} "
                         f"(proposal {number}). The players were told, without the proposer's name where the "
                         "house rules keep it secret.",
                         "Under the house rules you may refuse to put a proposal to the vote (000 IX(5)): "
                         f"gmserver game veto {game.name} {number}, or mail the line \"veto {game.name} {number}\".",
                     ])


_KEYWORDS = {"draw": "draw", "concede": "concession", "concession": "concession"}
PROPOSE = "propose [GAME] DRAW [POWERS] | propose [GAME] CONCEDE POWER"


def propose_by_gm(session: Session, services: Services, game: Game, words: str, *, by: str, now: datetime) -> Done:
    """gm_may_propose (003 [18] ¶1 "the GM or any player may propose"): the GM makes a proposal,
    casting no vote; the players are told as for theirs."""
    ruleset = queries.games.ruleset_of(game)
    if not ruleset.gm_may_propose:
        raise GameError("this game's house rules do not let the GM propose an end of the game")
    keyword, _, rest = words.strip().partition(" ")
    kind = _KEYWORDS.get(keyword.lower())
    if kind is None or not rules.offered(kind, ruleset):
        raise GameError(f"expected: {PROPOSE}, of a kind the house rules offer")
    line = rules.read_line(kind, rest)
    position = engine.position_from_state(queries.phases.current_record(session, game).state)
    members = line if isinstance(line, str) else rules.resolve_members(
        line, rules.survivors(position.units, position.centers), ruleset)
    if isinstance(members, str):
        raise GameError(members)
    if queries.votes.find_proposal(session, game.id, game.phase, kind, members_key(members)) is not None:
        raise GameError("that proposal has been made this turn already")
    row = queries.votes.add_proposal(session, game.id, game.phase, kind, members_key(members), GM, None, now)
    told = announce_proposal(session, services, game.id, Recorded(_proposal(row), "yes", True, row.id), ruleset, now)
    text = f"The GM proposed {rules.describe(_proposal(row))} (proposal {row.id})"
    queries.gm_actions.record_action(session, game.id, "propose", {"proposal": row.id}, by, now, text)
    return Done("propose", text, told)


def veto(session: Session, services: Services, game: Game, number: str, *, by: str, now: datetime) -> Done:
    """The GM refuses to put an open proposal to the vote (proposal_gm_veto, 000 IX(5)); the
    players are told, without the proposer's name."""
    ruleset = queries.games.ruleset_of(game)
    row = session.get(ProposalRow, int(number)) if number.isdigit() else None
    if row is None or row.game_id != game.id:
        raise GameError(f"{game.name} has no proposal {number!r}")
    if not ruleset.proposal_gm_veto:
        raise GameError("this game's house rules give the GM no veto over proposals")
    if row.status != "open":
        raise GameError(f"proposal {number} is {row.status} already: only an open proposal can be vetoed")
    described = rules.describe(_proposal(row))
    _close([row], "vetoed", "vetoed by the GM", game.phase)
    text = f"The GM has vetoed {described}: it will not be put to the vote (house rules 000 IX(5))."
    action = queries.gm_actions.record_action(session, game.id, "veto", {"proposal": row.id}, by, now, text)
    return Done("veto", text, announce(session, services, game, action.id, f"proposal vetoed: {described}",
                                       [text], now))


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
    disclose_authors(session, services, game, now)  # 000 X(2): to the GM only, however the game ended
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
    if last.winners:  # 002 DRAWS 3: a solo wins regardless of what was proposed
        _close(open_rows, "void", "void: the game was won outright", last.phase)
        return earlier
    due_rows = [row for row in open_rows
                if any(rules.due(row.phase, o.phase, o.after.phase, ruleset) for o in processed)]
    # 002 DRAWS 3: who was still in the game when this adjudication began; a proposal made in an
    # earlier turn (a Fall proposal tallied after Winter) is void if one of its powers fell since
    standing = rules.survivors(processed[0].before.units, processed[0].before.centers)
    results = _tally(game, ruleset, due_rows, open_rows, rules.survivors(last.after.units, last.after.centers),
                     last.phase, session, standing, {o.phase for o in processed})
    return VoteResults(earlier.announcements + results.announcements, results.ended)


def _tally(game: Game, ruleset: Ruleset, due_rows: Sequence[ProposalRow], open_rows: Sequence[ProposalRow],
           alive: frozenset[str], phase: str, session: Session, standing: frozenset[str] = frozenset(),
           adjudicated: Collection[str] = ()) -> VoteResults:
    """A16 on the rows due, with `alive` the powers still in the game; each row is closed.
    `standing`: the powers in the game before the phases `adjudicated` now (002 DRAWS 3)."""
    if not due_rows:
        return VoteResults()
    electors = rules.electorate(alive, [p.power for p in game.players if p.civil_disorder], ruleset)
    tallies, texts = [], {}
    for row in due_rows:
        if row.kind in rules.CHANGES:  # names no power: nothing to amend (002 DRAWS 3 is about draws)
            ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items() if power in alive}
            tallies.append((row, rules.tally(_proposal(row), electors, ballots, ruleset)))
            continue
        fell_later = () if row.phase in adjudicated else frozenset(standing) - alive
        proposal = rules.amend(_proposal(row), alive, ruleset, fell_later)  # 002 DRAWS 3
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
        if result.passed and row.kind == "deadline_change":
            texts[row.id] += " " + _change_deadline(game, int(row.members))
        if result.passed and result.proposal.kind in rules.GAME_ENDING:
            ended = f"The game has ended by vote: {rules.describe(result.proposal)}."
    if ended is not None:  # whatever else was still open has no game left to end
        _close([r for r in open_rows if r.status == "open"], "void", "void: the game ended", phase)
    log.info("%s: %d proposal(s) tallied in %s%s", game.name, len(texts), phase, f"; {ended}" if ended else "")
    return VoteResults(tuple(texts[row.id] for row in open_rows if row.id in texts), ended)


def _change_deadline(game: Game, days: int) -> str:
    """A passed deadline change (003 [18] ¶2) sets the game's movement turn length: the deadline
    after this adjudication is already reckoned with it (services/schedule.following_deadline)."""
    game.movement_seconds = days * 86400
    return f"From now on a movement turn lasts {days} days (house rules 003 [18])."


def _close(rows: Sequence[ProposalRow], status: str, result: str, phase: str) -> None:
    for row in rows:
        row.status, row.result, row.tallied_phase = status, result, phase


def finish(outcome: PhaseOutcome, results: VoteResults) -> PhaseOutcome:
    """The outcome of a game a vote ended: its next phase is the end (as a solo's is)."""
    if results.ended is None:
        return outcome
    return dataclasses.replace(outcome, after=dataclasses.replace(outcome.after, phase=GAME_OVER))
