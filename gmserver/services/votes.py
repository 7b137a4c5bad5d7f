"""Votes by mail and their tally at the deadline (MATRIX 2.10; rules/votes.py decides).

A vote line records a proposal or a ballot in the mail's transaction; the tally runs inside the
adjudication's transaction (services/turns.adjudicate calls `tally_due` after the outcome), so a
proposal is tallied exactly once, with the phase. No mail from here names a voter's vote. The
GM's part (veto, proposals, the GM's own vote) is services/vote_gm.py; the turn-length vote at the
start services/turn_length.py; complaints about a passed draw services/draw_complaints.py.
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
from gmserver.rules.vote_changes import DeadlineLine, TermsLine, deadline_problem, terms_key
from gmserver.rules.subject import format_subject
from gmserver.services import held
from gmserver.services.context import Services
from gmserver.services.gm_mail import announce  # the GM-action mail to every player
from gmserver.services.outbox import queue_all
from gmserver.services.press import disclose_authors
from gmserver.services.endgame import GAME_OVER
from gmserver.services.reply_tokens import token_of

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
    for player in game.players:
        if player.power not in alive:
            continue
        subject = format_subject(template=ruleset.subject_template, game_name=game.name, power=player.power,
                                 phase=game.phase, purpose="orders")
        message = services.composer.compose(to=player.address, subject=f"Proposal: {subject}", body=body,
                                            auto_submitted="auto-generated", date=now, reply_secret=token_of(player, game.phase))
        messages.append((message, f"proposal:{recorded.proposal_id}:{player.power}"))
    return queue_all(session, messages, kind="vote", now=now, game_id=game.id)


def proposal_of(row: ProposalRow) -> rules.Proposal:
    return _proposal(row)


def _proposal(row: ProposalRow) -> rules.Proposal:
    return rules.Proposal(row.kind, frozenset(row.members.split()), row.proposer, row.phase, row.terms or "")


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
                  session, now)


def end_by_vote(session: Session, services: Services, game: Game, results: VoteResults, now: datetime) -> int:
    """instead_if_passed: the game ends where it stands, its turn not adjudicated; every player is
    told (recorded like the GM's `game end`, by "vote"). How many mails were queued."""
    assert results.ended is not None
    game.status, game.deadline, game.paused = "finished", None, False
    row = queries.gm_actions.record_action(session, game.id, "end", {"phase": game.phase, "by": "vote"}, "vote", now,
                                           results.ended)
    disclose_authors(session, services, game, now)  # 000 X(2): to the GM only, however the game ended
    held.refuse_all_of_game(session, services, game, now, by="vote",
                            reason=f"{game.name} has ended by vote, so orders for it can no longer be used.")
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
        close(open_rows, "void", "void: the game was won outright", last.phase)
        return earlier
    due_rows = [row for row in open_rows
                if any(rules.due(row.phase, o.phase, o.after.phase, ruleset) for o in processed)]
    # 002 DRAWS 3: who was still in the game when this adjudication began; a proposal made in an
    # earlier turn (a Fall proposal tallied after Winter) is void if one of its powers fell since
    standing = rules.survivors(processed[0].before.units, processed[0].before.centers)
    results = _tally(game, ruleset, due_rows, open_rows, rules.survivors(last.after.units, last.after.centers),
                     last.phase, session, now, standing, {o.phase for o in processed})
    return VoteResults(earlier.announcements + results.announcements, results.ended,
                       earlier.rule_changes + results.rule_changes)


def _tally(game: Game, ruleset: Ruleset, due_rows: Sequence[ProposalRow], open_rows: Sequence[ProposalRow],
           alive: frozenset[str], phase: str, session: Session, now: datetime, standing: frozenset[str] = frozenset(),
           adjudicated: Collection[str] = ()) -> VoteResults:
    """A16 on the rows due, with `alive` the powers still in the game; each row is closed.
    `standing`: the powers in the game before the phases `adjudicated` now (002 DRAWS 3)."""
    if not due_rows:
        return VoteResults()
    electors = rules.electorate(alive, [p.power for p in game.players if p.civil_disorder], ruleset)
    tallies, texts = [], {}
    from gmserver.services import turn_length  # noqa: PLC0415  it records ballots through this module
    for row in due_rows:
        if row.kind == "draw_complaint":  # 002 DRAWS 5: a complaint window, not a proposal (draw_complaints.py)
            continue
        if row.kind == turn_length.KIND:  # 003 [23]: the start-of-game vote, counted at the first deadline
            texts[row.id] = turn_length.count(session, game, row, ruleset, phase)
            continue
        if row.kind in rules.CHANGES or row.kind in rules.WORDED:  # names no power: nothing to amend (002 DRAWS 3)
            ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items()
                       if power in alive or power == rules.GM}  # the GM's, where gm_must_agree (000 IX(3))
            tallies.append((row, rules.tally(_proposal(row), electors, ballots, ruleset)))
            continue
        fell_later = () if row.phase in adjudicated else frozenset(standing) - alive
        proposal = rules.amend(_proposal(row), alive, ruleset, fell_later)  # 002 DRAWS 3
        if isinstance(proposal, str):
            close([row], "void", proposal, phase)
            described = rules.describe(_proposal(row))
            texts[row.id] = f"{described[0].upper()}{described[1:]} is {proposal}."
            continue
        ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items() if power in alive}
        tallies.append((row, rules.tally(proposal, electors, ballots, ruleset)))
    settled = rules.settle([t for _, t in tallies], ruleset)
    ended, ending = None, None
    for (row, _), result in zip(tallies, settled):
        close([row], "passed" if result.passed else "failed", result.reason, phase)
        texts[row.id] = rules.announcement(result, ruleset)
        if result.passed and row.kind == "deadline_change":
            texts[row.id] += " " + _change_deadline(game, int(row.members))
        if result.passed and row.kind == "rule_change":
            texts[row.id] += " " + _rule_change_passed(ruleset)
        if result.passed and result.proposal.kind in rules.GAME_ENDING:
            ended, ending = _ended(result.proposal), row
    if ended is not None:  # whatever else was still open has no game left to end
        close([r for r in open_rows if r.status == "open"], "void", "void: the game ended", phase)
        from gmserver.services import draw_complaints  # noqa: PLC0415  it records through this module
        if (window := draw_complaints.open_window(session, game, ending, ruleset, now)) is not None:
            ended += " " + window  # 002 DRAWS 5: final only if no majority complains
    log.info("%s: %d proposal(s) tallied in %s%s", game.name, len(texts), phase, f"; {ended}" if ended else "")
    passed_changes = tuple(row.id for row, result in zip((r for r, _ in tallies), settled)
                           if result.passed and row.kind == "rule_change")
    return VoteResults(tuple(texts[row.id] for row in open_rows if row.id in texts), ended, passed_changes)


def _change_deadline(game: Game, days: int) -> str:
    """A passed deadline change (003 [18] ¶2) sets the game's movement turn length: the deadline
    after this adjudication is already reckoned with it (services/schedule.following_deadline)."""
    game.movement_seconds = days * 86400
    return f"From now on a movement turn lasts {days} days (house rules 003 [18])."


def _ended(proposal: rules.Proposal) -> str:
    if proposal.kind == "end_game_any_terms":  # 003 [18] ¶1: the final mail states the terms
        return f"The game has ended by vote, on these terms: \"{proposal.terms}\"."
    return f"The game has ended by vote: {rules.describe(proposal)}."


def _rule_change_passed(ruleset: Ruleset) -> str:
    """A passed rule change is written in words: the GM applies it (the GM is told by the report's
    copy and the notice of the proposal); the server cannot change a rule written in words itself."""
    return (f"The GM will now apply the change ({rules.rule_change_clause(ruleset)}): the server cannot "
            "change a rule written in words by itself, so until the GM announces it, the game goes on "
            "under the house rules as they were.")


def close(rows: Sequence[ProposalRow], status: str, result: str, phase: str) -> None:
    for row in rows:
        row.status, row.result, row.tallied_phase = status, result, phase


def finish(outcome: PhaseOutcome, results: VoteResults) -> PhaseOutcome:
    """The outcome of a game a vote ended: its next phase is the end (as a solo's is)."""
    if results.ended is None:
        return outcome
    return dataclasses.replace(outcome, after=dataclasses.replace(outcome.after, phase=GAME_OVER))
