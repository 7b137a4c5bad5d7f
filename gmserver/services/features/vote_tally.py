"""The tally of the votes at the deadline (rules/votes.py decides): the proposals due
are counted inside the adjudication's transaction (services/turn/turns.adjudicate calls
`tally_before` and `tally_due`), so a proposal is tallied exactly once, with the phase. A passed
draw or concession ends the game (`end_by_vote`, `finish`). Recording a proposal or a ballot is
services/features/votes.py; the turn-length vote services/features/turn_length.py; complaints
about a passed draw services/features/draw_complaints.py: the tally counts each of them.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection, Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, ProposalRow
from gmserver.rules import votes as rules
from gmserver.rules.position import PhaseOutcome, describe_phase
from gmserver.rules.ruleset import Ruleset
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce  # the GM-action mail to every player
from gmserver.services.features import draw_complaints, turn_length, votes
from gmserver.services.features.ending import final_record, finish_game
from gmserver.services.features.votes import VoteResults
from gmserver.services.game.endgame import GAME_OVER

log = logging.getLogger(__name__)


def tally_before(session: Session, game: Game, ruleset: Ruleset, now: datetime) -> VoteResults:
    """vote_publication = instead_if_passed (000 IX(4)): at the deadline, before the
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
    row = queries.gm_actions.record_action(session, game.id, "end", {"phase": game.phase, "by": "vote"}, "vote", now,
                                           results.ended)
    finish_game(session, services, game, now, by="vote",
                reason=f"{game.name} has ended by vote, so orders for it can no longer be used.")
    # the game's own clause for the rule (000 IX(4) in mhr, 001 VIII(4) in danivon), or none
    clause = queries.games.ruleset_of(game).cites("vote_publication")
    record = final_record(session, game)  # no report follows: this mail carries the game's record
    return announce(session, services, game, row.id, "the game has ended by vote", [
        *results.announcements, results.ended,
        f"The game ends where it stood before the deadline: the {describe_phase(game.phase)} orders were not "
        "adjudicated, the result of the vote being published instead" + (f" (house rules {clause})." if clause else "."),
        record.paragraph,
    ], now, table=record.table, images=record.images)


def tally_due(session: Session, game: Game, ruleset: Ruleset, processed: Sequence[PhaseOutcome],
              now: datetime, earlier: VoteResults | None = None) -> VoteResults:
    """Tally the open proposals due after the phases just adjudicated (`processed`, in order; the
    last one's `after` is where the game now stands); `earlier`: those tallied before the
    adjudication (`tally_before`), reported with these. A solo won this turn voids them all (002
    DRAWS 3: a player with 18 centres after Winter wins regardless)."""
    earlier = earlier if earlier is not None else VoteResults()
    last = processed[-1]
    open_rows = queries.votes.open_proposals(session, game.id)
    if last.winners:  # 002 DRAWS 3: a solo wins regardless of what was proposed
        votes.close(open_rows, "void", "void: the game was won outright", last.phase)
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
    """The tally (rules/votes.py) on the rows due, with `alive` the powers still in the game; each row is closed.
    `standing`: the powers in the game before the phases `adjudicated` now (002 DRAWS 3)."""
    if not due_rows:
        return VoteResults()
    electors = rules.electorate(alive, [p.power for p in game.players if p.civil_disorder], ruleset)
    tallies, texts = [], {}
    for row in due_rows:
        if row.kind == "draw_complaint":  # 002 DRAWS 5: a complaint window, not a proposal (draw_complaints.py)
            continue
        if row.kind == turn_length.KIND:  # 003 [23]: the start-of-game vote, counted at the first deadline
            texts[row.id] = turn_length.count(session, game, row, ruleset, phase)
            continue
        if row.kind in rules.CHANGES or row.kind in rules.WORDED:  # names no power: nothing to amend (002 DRAWS 3)
            ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items()
                       if power in alive or power == rules.GM}  # the GM's, where gm_must_agree (000 IX(3))
            tallies.append((row, rules.tally(votes.proposal_of(row), electors, ballots, ruleset)))
            continue
        fell_later = () if row.phase in adjudicated else frozenset(standing) - alive
        proposal = rules.amend(votes.proposal_of(row), alive, ruleset, fell_later)  # 002 DRAWS 3
        if isinstance(proposal, str):
            votes.close([row], "void", proposal, phase)
            described = rules.describe(votes.proposal_of(row))
            texts[row.id] = f"{described[0].upper()}{described[1:]} is {proposal}."
            continue
        ballots = {power: vote for power, vote in queries.votes.ballots(session, row.id).items() if power in alive}
        tallies.append((row, rules.tally(proposal, electors, ballots, ruleset)))
    settled = rules.settle([t for _, t in tallies], ruleset)
    ended, ending = None, None
    for (row, _), result in zip(tallies, settled, strict=False):
        votes.close([row], "passed" if result.passed else "failed", result.reason, phase)
        texts[row.id] = rules.announcement(result, ruleset)
        if result.passed and row.kind == "deadline_change":
            texts[row.id] += " " + _change_deadline(game, int(row.members))
        if result.passed and row.kind == "rule_change":
            texts[row.id] += " " + _rule_change_passed(ruleset)
        if result.passed and result.proposal.kind in rules.GAME_ENDING:
            ended, ending = _ended(result.proposal), row
    if ended is not None:  # whatever else was still open has no game left to end
        votes.close([r for r in open_rows if r.status == "open"], "void", "void: the game ended", phase)
        if (window := draw_complaints.open_window(session, game, ending, ruleset, now)) is not None:
            ended += " " + window  # 002 DRAWS 5: final only if no majority complains
    log.info("%s: %d proposal(s) tallied in %s%s", game.name, len(texts), phase, f"; {ended}" if ended else "")
    passed_changes = tuple(row.id for row, result in zip((r for r, _ in tallies), settled, strict=False)
                           if result.passed and row.kind == "rule_change")
    return VoteResults(tuple(texts[row.id] for row in open_rows if row.id in texts), ended, passed_changes)


def _change_deadline(game: Game, days: int) -> str:
    """A passed deadline change (003 [18] ¶2) sets the game's movement turn length: the deadline
    after this adjudication is already reckoned with it (services/game/schedule.following_deadline)."""
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


def finish(outcome: PhaseOutcome, results: VoteResults) -> PhaseOutcome:
    """The outcome of a game a vote ended: its next phase is the end (as a solo's is)."""
    if results.ended is None:
        return outcome
    return dataclasses.replace(outcome, after=dataclasses.replace(outcome.after, phase=GAME_OVER))
