"""Deadlines: adjudicate a phase exactly once, queue the reports, open the next phase.

docs/architecture.md, "The life of a phase": one transaction claims the game row (FOR UPDATE SKIP LOCKED on
PostgreSQL; SQLite serialises writers), re-checks that the phase is still the one due, runs the
engine, stores the result and the next phase, queues every report and advances the game. A
second worker, a replayed job or a restart finds the phase already advanced and does nothing.
The sweep does this for a batch of games in one transaction (`adjudicate_due`): what one game
does commits with its batch or not at all; a game that fails has its batch rolled back and done
again without it.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gmserver import engine
from gmserver.db import queries
from gmserver.db.models import Game, PhaseRecord, Player
from gmserver.db.queries.rows import HeldWritesFailed, held_writes
from gmserver.db.session import DATABASE_UNREACHABLE, transaction
from gmserver.reports.words import format_time
from gmserver.rules.corrections import deadline_after_correction
from gmserver.rules.order import Order, Unit
from gmserver.rules.perpetual import note as perpetual_note
from gmserver.rules.position import SEASON_NAMES, PhaseOutcome, phase_type
from gmserver.rules.reading.condition_facts import contingent_source
from gmserver.rules.reading.reader import read_contingent
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.schedule import early_major_turn, empty_retreat_turn
from gmserver.rules.turn import unsupportable_note, void_hold_supports, void_mismatched_coast_supports
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import copy_to_gm
from gmserver.services.base.outbox import ReportCopy, queue_report
from gmserver.services.base.page_tokens import pages_public, report_links
from gmserver.services.base.reply_tokens import token_of
from gmserver.services.features import (
    absences,
    convoys,
    ending,
    nmr,
    perpetual,
    press,
    proxies,
    reminders,
    revalidate,
    vote_gm,
    vote_tally,
    votes,
)
from gmserver.services.game import actions, endgame, schedule
from gmserver.services.game.on_file import OnFile
from gmserver.services.game.ordersets import contingent_for, movement_turn, on_file_and_lines, orders_on_file
from gmserver.services.game.schedule import Due, following_deadline, is_due
from gmserver.services.game.shown import GameError
from gmserver.services.turn import adjudication, turn_report

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnDone:
    game_id: int
    game: str
    phase: str
    next_phase: str
    deadline: datetime | None
    reports: int


def due_games(sessions, now: datetime) -> list[Due]:
    """Games due now: past deadline and grace with an automatic trigger, or ready early."""
    with transaction(sessions) as session:
        return schedule.due_games(session, now)


# Games adjudicated in one transaction by the sweep: a commit (the WAL's flush to disk) cost
# about a quarter of a deadline's wall time when each game had its own (docs/performance.md).
# The locks are held until the batch commits: an order set for one of these games waits at most
# that long, and its reports leave at the commit.
DEADLINE_BATCH = 25


def adjudicate_due(services: Services, now: datetime, *, batch: int = DEADLINE_BATCH) -> list[TurnDone]:
    """Every game that is due (services/game/schedule.py: deadline plus grace, automatic trigger, or
    early under 000 VII(2)); one game's failure is logged and does not stop the others (its batch
    is done again without it; it is tried again at the next sweep). `batch` games share a
    transaction; a batch whose commit fails is tried again, whole, at the next sweep."""
    done = []
    due = due_games(services.sessions, now)
    for start in range(0, len(due), batch):
        try:
            done += _adjudicate_batch(services, due[start:start + batch], now)
        except Exception:
            log.exception("adjudicating games %s failed and none of them was committed; they will be tried again",
                          ", ".join(str(d.game_id) for d in due[start:start + batch]))
    return done


class _GameFailed(Exception):
    """One game of a batch failed (logged): the batch's transaction is rolled back, to be done
    again without it."""

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)
        self.game_id = game_id


def _adjudicate_batch(services: Services, batch: list[Due], now: datetime) -> list[TurnDone]:
    """`batch`'s games in one transaction. A game that fails rolls the transaction back, and the
    batch is done again without it: no game's work is kept from a transaction a failure went
    through. A savepoint per game did the same with two more statements a game (a round trip
    each on PostgreSQL); a failure, rare, now costs its batch's work again. The games' writes
    that nothing reads back are held and sent together (`rows.held_writes`); if sending them
    fails, which game's write failed is not known: the batch is done again with each game's
    writes sent at once (a report key already taken is then seen and left, as at any time)."""
    failed: set[int] = set()
    together = True
    while True:
        try:
            done = _adjudicate_batch_once(services, [due for due in batch if due.game_id not in failed], now,
                                          together=together)
        except _GameFailed as failure:
            failed.add(failure.game_id)
            continue
        except HeldWritesFailed as failure:
            if isinstance(failure.__cause__, DATABASE_UNREACHABLE) or not together:
                raise  # no game's own failure: the batch is tried, whole, at the next sweep
            log.warning("games %s: their writes sent together failed (%s); done again, each game's at once",
                        ", ".join(str(due.game_id) for due in batch), failure.__cause__)
            together = False
            continue
        for result in done:  # only now is it true: a failed commit rolls every phase of the batch back
            _log_done(result)
        return done


def _adjudicate_batch_once(services: Services, batch: list[Due], now: datetime, *, together: bool
                           ) -> list[TurnDone]:
    """`together`: the games' writes held and sent together (`rows.held_writes`)."""
    done = []
    with transaction(services.sessions) as session, held_writes(session) if together else nullcontext():
        claims = queries.phases.claim_all_at_deadline(session, [due.game_id for due in batch])
        # what each game reads, read for all of them at once: its sets on file, its report's centre chart
        queries.ordersets.read_sets_ahead(session, [(game.id, game.phase) for game, _, _ in claims.values()])
        queries.phases.read_spring_centres_ahead(session, list(claims))
        for due in batch:
            claimed = claims.get(due.game_id)
            if claimed is None:
                continue  # another worker holds it (it adjudicates it), or it is gone
            try:
                result = _adjudicate_claimed(session, services, claimed, now, expected_phase=due.phase,
                                             early=due.early)
            except (*DATABASE_UNREACHABLE, HeldWritesFailed):
                raise  # no game's own failure: each would fail in turn
            except Exception as error:
                log.exception("game %s: adjudicating %s failed; it will be tried again", due.game_id, due.phase)
                raise _GameFailed(due.game_id) from error
            if result is not None:
                done.append(result)
    return done


def adjudicate(services: Services, game_id: int, now: datetime, *, expected_phase: str | None = None,
               force: bool = False, wait: bool = False, early: bool = False, by: str | None = None,
               overrule: bool = False) -> TurnDone | None:
    """Adjudicate the game's current phase if it is due (or `force`; or, with `early`, ready
    early under 000 VII(2)); None if there is nothing to do: not due, already done by someone
    else, or (unless `wait`) locked by another worker right now, e.g. one storing an order set:
    the sweep tries again. Whether it is due is re-checked here, under the game's lock.

    `by`: the GM's `gmserver adjudicate`, refused (GameError) where the house rules forbid it
    unless the GM `overrule`s them (`--force`): a movement turn before its deadline (000 VII(2),
    001 IV(2); the players are told when it is forced), a game suspended for new players (001
    V(3), 003 [14])."""
    if by is not None:
        # 001 V(1): with no daemon's sweep (a game run from the command line alone), a contact window
        # that closed is seen to here, before the turn it may suspend
        nmr.check_contact_windows(services, now, game_id)
    with transaction(services.sessions) as session:
        done = _adjudicate_in(session, services, game_id, now, expected_phase=expected_phase, force=force, wait=wait,
                              early=early, by=by, overrule=overrule)
    if done is not None:  # only now is it true: a failed commit rolls the phase back and it is adjudicated again
        _log_done(done)
    return done


def _log_done(done: TurnDone) -> None:
    log.info("%s: adjudicated %s -> %s; %d reports queued; next deadline %s", done.game, done.phase,
             done.next_phase, done.reports, done.deadline.isoformat() if done.deadline else "none (game over)")


def _adjudicate_in(session: Session, services: Services, game_id: int, now: datetime, *,
                   expected_phase: str | None = None, force: bool = False, wait: bool = False, early: bool = False,
                   by: str | None = None, overrule: bool = False) -> TurnDone | None:
    """`adjudicate`'s work in the caller's transaction (committed by it)."""
    # with the game, its phase's record and whether it has proxies, open proposals, press for the
    # report, observers, absences: most have none
    claimed = queries.phases.claim_at_deadline(session, game_id, skip_locked=not wait)
    if claimed is None:
        return None
    return _adjudicate_claimed(session, services, claimed, now, expected_phase=expected_phase, force=force,
                               early=early, by=by, overrule=overrule)


def _adjudicate_claimed(session: Session, services: Services, claimed: queries.phases.Claim, now: datetime, *,
                        expected_phase: str | None = None, force: bool = False, early: bool = False,
                        by: str | None = None, overrule: bool = False) -> TurnDone | None:
    """`_adjudicate_in`'s work on the game it claimed (`claimed`: the game locked, its phase's
    record, what it has besides)."""
    game, record, besides = claimed
    if game.status != "active" or game.paused:
        return None  # a paused game is never adjudicated, not even by the GM's command
    if expected_phase is not None and game.phase != expected_phase:
        return None
    if not force and not is_due(session, game, now, early=early):
        return None
    assert record is not None, f"{game.name} has no record of its phase {game.phase}"
    assert record.adjudicated_at is None
    ruleset = queries.games.ruleset_of(game)
    forced_early: tuple[int, datetime] | None = None
    if by is not None:  # the GM's `gmserver adjudicate`: a GM action (`game actions`), once with the turn
        early_rule = early_major_turn(ruleset, game.phase, game.deadline, now)
        if not overrule:
            _refuse_against_the_rules(game, ruleset, early_rule)
        action_id = actions.record_forced_adjudication(session, game, now, by=by)
        if early_rule is not None and game.deadline is not None:
            forced_early = (action_id, game.deadline)
    if not force and _spring_1901_wait(session, services, game, record, ruleset, now):
        return None  # 003 [14]: the game waits for replacements; `gmserver adjudicate` (force) does not
    # vote_publication (no proposal open: nothing to tally, before or after)
    early_votes = (vote_tally.tally_before(session, game, ruleset, now) if besides.open_proposals
                   else votes.VoteResults())
    if early_votes.ended:  # instead_if_passed (000 IX(4)): a passed draw or concession ends the game instead
        return TurnDone(game.id, game.name, game.phase, game.phase, None,
                        vote_tally.end_by_vote(session, services, game, early_votes, now))
    first_record = record
    outcome = _process_phase(session, services, game, record, ruleset, now, besides)
    first, minor = outcome, []
    while processed_at_once(ruleset, outcome):
        # season_structure = uk_two_season (003 [5]): no separate retreat or winter turn;
        # the retreats and builds sent with the moves are applied now, in this transaction.
        record = open_at_once(session, game, outcome, now)
        outcome = _process_phase(session, services, game, record, ruleset, now, besides)
        minor.append(outcome)
    if not minor and not outcome.winners:
        first = outcome = _with_empty_retreat_turn(ruleset, outcome)  # 002 PRESS 7
    # the proposals due at this deadline, with those tallied before the turn
    ballots = (vote_tally.tally_due(session, game, ruleset, [first, *minor], now, early_votes)
               if besides.open_proposals else early_votes)  # adjudicating opens no proposal
    vote_gm.tell_gm_results(session, services, game, ballots, now)  # a passed rule change (000 IX(3))
    if ballots.ended:  # a passed draw or concession ends the game, as a solo does
        outcome = vote_tally.finish(outcome, ballots)
        first, minor = (first, [*minor[:-1], outcome]) if minor else (outcome, minor)
    finished = bool(outcome.winners) or phase_type(outcome.after.phase) == "-"
    deadline = None if finished else _next_deadline(game, ruleset, outcome, first_record, now)
    if deadline is not None and not first_record.revision and besides.absences:
        deadline = _after_absences(session, services, game, ruleset, outcome.after.phase, deadline, now)
    queries.phases.open_next_phase(session, game.id, outcome.after.phase, dict(outcome.state_after), deadline, now)
    # a Spring 1901 wait (003 [14]) ends with the phase
    queries.games.advance(session, game, {"phase": outcome.after.phase, "deadline": deadline, "waiting_for": None})
    if forced_early is not None:  # 000 VII(2), 001 IV(2): the GM overruled the house rule; all are told
        actions.tell_players_of_early_adjudication(session, services, game, forced_early[0], first.phase,
                                                   forced_early[1], ruleset.cites("major_turns_early"), now)
    if first_record.revision and not finished:  # the next turn's orders read again
        revalidate.revalidate_after_correction(session, services, game, dict(outcome.state_after), first.phase,
                                               first_record.revision, now)
    if finished:
        ending.finish_game(session, services, game, now, by="turn",
                           reason=f"{game.name} has ended, so orders for it can no longer be used.")
    reports = _queue_reports(session, services, game, [first, *minor], deadline, ballots, first_record.revision,
                             now, besides.press_for_report, besides.observers)
    for reported in (first, *minor) if besides.press_for_report else ():
        press.settle_conditions(session, services, game, reported, now)  # 003 [9] conditional press
    return TurnDone(game.id, game.name, first.phase, outcome.after.phase, deadline, reports)


def _refuse_against_the_rules(game: Game, ruleset: Ruleset, early_rule: str | None) -> None:
    """The GM's adjudication that the house rules forbid now, refused with the rule and the way
    to overrule it: a game suspended until new players join (001 V(3), 003 [14]), a movement turn
    before its deadline (000 VII(2), 001 IV(2))."""
    overrule = f"`gmserver adjudicate {game.name} --force` adjudicates it anyway"
    if game.waiting_for:
        clauses = ", ".join(c for c in (ruleset.cites("first_year_abandonment"), ruleset.cites("s1901_policy")) if c)
        raise GameError(f"{game.name} is suspended until {', '.join(p.title() for p in game.waiting_for)} "
                        f"{'has' if len(game.waiting_for) == 1 else 'have'} a new player"
                        f"{f' ({clauses})' if clauses else ''}: `gmserver game replace {game.name} "
                        f"POWER ADDRESS` first; {overrule}, as it is (their units hold)")
    if early_rule is not None:
        raise GameError(f"{early_rule[:1].upper()}{early_rule[1:]}. {overrule[:1].upper()}{overrule[1:]}, and the "
                        "players are told")


def _with_empty_retreat_turn(ruleset: Ruleset, outcome: PhaseOutcome) -> PhaseOutcome:
    """report_empty_retreat_season (002 PRESS 7): a season with nothing to retreat still has its
    retreat turn, with its own deadline and report, so that press may be sent in it; nobody owes
    orders there, so it is never adjudicated early (minor_turn_complete) and misses no turn."""
    retreat = empty_retreat_turn(ruleset, outcome.phase, outcome.after.phase)
    if retreat is None:
        return outcome
    state = engine.at_retreat_phase(outcome.state_after, retreat)
    return dataclasses.replace(outcome, after=engine.position_from_state(state), state_after=state)


def _next_deadline(game: Game, ruleset: Ruleset, outcome: PhaseOutcome, first_record: PhaseRecord,
                   now: datetime) -> datetime | None:
    """from the schedule (this phase's deadline), never from when processing happened; a
    corrected turn (000 VIII(1)) per extension_after_correction (002 GM ERRORS 3)."""
    deadline = following_deadline(game, ruleset, outcome.after.phase, now)
    if first_record.revision and deadline is not None:
        deadline = deadline_after_correction(ruleset, first=first_next_deadline(first_record), fresh=deadline,
                                             now=now)
    return deadline


def _after_absences(session: Session, services: Services, game: Game, ruleset: Ruleset, phase: str,
                    deadline: datetime, now: datetime) -> datetime:
    """absence_policy = move_deadline (000 VII(5), 001 IV(5)): a new turn's deadline that falls
    while a player is away moves to the end of the absence; the turn's report carries it."""
    moved = absences.plan(session, game, ruleset, phase, deadline)
    if moved.moved:
        absences.record_moves(session, services, game, phase, deadline, moved, now)
    return moved.deadline


def _queue_reports(session: Session, services: Services, game: Game, phases: list[PhaseOutcome],
                   deadline: datetime | None, ballots: votes.VoteResults, revision_number: int, now: datetime,
                   with_press: bool = True, with_observers: bool = True) -> int:
    """Store the turn's report once (one mail for the phases processed together) and queue every
    player's copy of it, and the GM's copy; a re-adjudication after a rollback sends its own
    reports (the first ones were sent). The copies are written when they are sent
    (services/base/report_copies.py): nothing is composed, drawn or serialised here.
    `with_observers` False: the game has no observer (the deadline knows it), none is read."""
    first, minor = phases[0], phases[1:]
    key = f"report:{game.id}:{first.phase}:{f'r{revision_number}:' if revision_number else ''}"
    last = phases[-1].after  # the report's centre chart: every game year so far, and where the game now stands
    parts, copies = turn_report.turn_report(services, game, first, deadline, now, key, then=minor,
                                      corrected=bool(revision_number), votes=ballots,
                                      centre_points=ending.centre_points(session, game, last.centers, last.phase),
                                      press=with_press)
    public = pages_public(game.pages_public, services.web_public)
    reports = queue_report(session, parts, [ReportCopy(copy.player.address, copy.subject, token_of(copy.player, game.phase),
                                                       copy.message_id, f"{key}{copy.player.power}", copy.player.power,
                                                       report_links(services.web_base_url, copy.player, first.phase, now,
                                                                    public=public),
                                                       _reader_deadline(game, copy.player, deadline))
                                            for copy in copies]
                           + (turn_report.observer_copies(session, services, game, first.phase, key)
                              if with_observers else []),
                           sender=services.composer.gm_address, now=now, game_id=game.id)
    if reports and copies and game.gm_copies:  # the report is one body addressed to each player: the GM gets it once
        copy_to_gm(session, services, game.id, turn_report.report_text_copy(services, parts, copies[0]), "report", key, now)
    return reports


def _reader_deadline(game: Game, player: Player, deadline: datetime | None) -> tuple[str, str] | None:
    """SET ZONE: the next deadline in the player's zone, the game's and UTC beside it; None keeps the report's."""
    if deadline is None or not player.zone or player.zone == game.timezone:
        return None
    when = format_time(deadline, game.timezone, player.zone)
    return when.local, when.utc


def _process_phase(session: Session, services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                   now: datetime, besides: queries.phases.Besides) -> PhaseOutcome:
    """Adjudicate the game's current phase and record its orders, results and missed turns."""
    computed = compute_outcome(session, services, game, record, ruleset, has_proxies=besides.proxies)
    # 000 VII(6): counted again after a rollback, which put the counts back as they were before
    # (record.missed_before); a phase adjudicated before that record was kept keeps its first count
    missed_before = {}
    if not record.revision or record.missed_before is not None:
        missed_before = {"missed_before": nmr.missed_record(game)}
        nmr.record_turn(session, services, game, computed.outcome.before, ruleset, computed.ordered, now)
    if not record.revision:
        perpetual.end_where_ordered(game, game.phase, computed.sent)  # 000 II(4): the player ordered
        if besides.proxies:
            proxies.follow_units(session, game.id, computed.outcome)  # 003 [19]: a proxied unit that moved
    outcome = endgame.decide_end(session, services, game, ruleset, computed.outcome, now)
    # orders as given (GM convoy rulings applied); the defaults are in the results, marked. The
    # database JSON keeps engine notation: str(order) at this edge
    queries.rows.write_now(session, record, {
        **missed_before, "adjudicated_at": now, "results": results_rows(outcome),
        "orders": {power: [str(o) for o in power_orders] for power, power_orders in computed.orders.items()}})
    # 000 VI(4), VI(6): the GM rules; the orders as given, not read back from the record's text
    convoys.flag_disputes(session, services, game, record, outcome, now, computed.orders)
    return outcome


@dataclass(frozen=True)
class Computed:
    orders: dict[str, tuple[Order, ...]]  # the orders given, before the defaults (GM convoy rulings applied)
    outcome: PhaseOutcome
    ordered: frozenset[str]  # the powers with a set on file, or contingent lines standing in
    sent: frozenset[str] = frozenset()  # the powers with a set on file for this phase


def compute_outcome(session: Session, services: Services, game: Game, record: PhaseRecord,
                    ruleset: Ruleset, *, has_proxies: bool = True) -> Computed:
    """What the engine makes of the game's current phase: the sets on file, contingent lines,
    void hold supports, the GM's convoy rulings, and the house rules' defaults for the rest.
    Stores nothing (`game preview` shows it without publishing). `has_proxies` False: the
    game has no proxy (the deadline knows it), so none is read."""
    on_file, lines = on_file_and_lines(session, game.id, game.phase, ruleset, None if has_proxies else {})
    contingent = _contingent_orders(session, services, game, record, ruleset, on_file)
    # 000 II(4) perpetual_orders: a power that sent nothing gets its kept set's orders that still apply
    standing = perpetual.standing_orders(game, record, frozenset(on_file.versions) | frozenset(contingent))
    ruled, outcome = outcome_of_orders(services, game, record, ruleset, {**on_file.orders, **contingent, **standing},
                                       on_file.unsupportable)
    outcome = _with_contingent_notes(outcome, contingent, contingent_source(game.phase))
    outcome = _with_standing_notes(outcome, standing, ruleset)
    outcome = adjudication.with_unused_lines(outcome, lines)
    return Computed(dict(ruled), outcome, frozenset(on_file.versions) | frozenset(contingent) | frozenset(standing),
                    frozenset(on_file.versions))


def imagined_outcome(services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                     orders: Mapping[str, tuple[Order, ...]], unsupportable: Iterable[Unit]) -> Computed:
    """What the engine would make of the game's current phase with `orders` alone (a player's
    WHATIF): the same path as `compute_outcome`, with nothing on file read: no set, contingent
    line, perpetual set or GM convoy ruling (each would tell of a power's real orders); every
    unit without an imagined order takes the house rules' default."""
    ruled, outcome = outcome_of_orders(services, game, record, ruleset, orders, unsupportable, rulings=False)
    return Computed(dict(ruled), outcome, frozenset(orders))


def outcome_of_orders(services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                      given: Mapping[str, tuple[Order, ...]], unsupportable: Iterable[Unit], *,
                      rulings: bool = True) -> tuple[dict[str, tuple[Order, ...]], PhaseOutcome]:
    """(the orders after the GM's convoy rulings, the outcome) of `given` in the phase of
    `record`: void hold supports, routes followed, rulings (`rulings`), the house rules' defaults
    for the rest, the engine, and the notes the report gives."""
    orders, voided = void_hold_supports(dict(given), unsupportable)
    # 000 III(5) ¶1, 003 [10 b]: said why (the words are worked out only for a phase with such a support)
    notes = dict.fromkeys(voided, unsupportable_note(ruleset)) if voided else {}
    orders, mismatched = void_mismatched_coast_supports(orders, ruleset.coast_support_mismatch)  # DATC 6.B.9
    voided += mismatched
    orders, route_notes = convoys.routes_followed(orders, ruleset, services)  # 000 VI(3), DATC 4.A.6
    ruled = convoys.ruled_orders(record, orders, services) if rulings else orders  # 000 VI(4).16
    # The engine gets an order for every unit, build and removal: the house rules' defaults
    # (rules/defaults.py), never its own; units of a power in civil disorder hold (000 V(3)).
    position = engine.position_from_state(record.state)  # read once: the completion and the engine both need it
    for_engine, complete = adjudication.completed(record.state, ruled, ruleset,
                                                  civil_disorder=nmr.civil_disorder_of(game), position=position)
    # the profile's solo count decides the winner (services.game.endgame), not the engine's 18
    outcome = engine.adjudicate(record.state, for_engine, engine_decides_solo=False, position=position)
    if ruleset.datc_4a2 == "rb2000_all_hold_backup":  # 000 VI(6): not the engine's Szykman rule
        outcome, _ = convoys.paradox_rule(record.state, for_engine, outcome, services.geography)
    outcome = adjudication.mark_defaults(outcome, complete)
    outcome = convoys.with_ruling_notes(_with_void_supports(outcome, voided, notes), orders, ruled)
    return ruled, convoys.with_route_notes(outcome, route_notes)


def first_next_deadline(record: PhaseRecord) -> datetime | None:
    """The deadline the first adjudication of a rolled-back phase gave the turn after it."""
    first = (record.superseded or [{}])[0].get("next_deadline")
    return datetime.fromisoformat(first) if first else None


def _spring_1901_wait(session: Session, services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                      now: datetime) -> tuple[str, ...]:
    """003 [14]: the powers silent at the Spring 1901 deadline, for which the game waits (none: go on)."""
    if ruleset.s1901_policy != "suspend_until_replaced" or game.phase != "S1901M":
        return ()
    ordered = set(orders_on_file(session, game.id, game.phase, ruleset).versions)
    return nmr.spring_1901_wait(session, services, game, record.state, ruleset, ordered, now)


def results_rows(outcome: PhaseOutcome) -> list[dict]:
    """A phase's results as its record keeps them (engine notation in the database JSON)."""
    return [{"power": o.power, "order": str(o.order), "results": list(o.results),
             "defaulted": o.defaulted, **({"note": o.note} if o.note else {})}
            for o in outcome.orders]


def open_at_once(session: Session, game: Game, outcome: PhaseOutcome, now: datetime) -> PhaseRecord:
    """The retreat or adjustment phase after `outcome`, opened to be processed at once (003 [5]):
    it has no deadline of its own."""
    record = queries.phases.open_phase(session, game.id, outcome.after.phase, dict(outcome.state_after), None, now)
    game.phase = outcome.after.phase
    return record


def processed_at_once(ruleset: Ruleset, outcome: PhaseOutcome) -> bool:
    """003 [5] (uk_two_season, `two_season_retreat_timing = same_turn`): the retreat and
    adjustment phases that follow a movement phase are processed with it, from the lines sent
    with the moves. (`with_next_turn` is not carried out: those phases are processed at once too.)"""
    return (ruleset.season_structure == "uk_two_season" and not outcome.winners
            and phase_type(outcome.after.phase) in ("R", "A"))


def _with_standing_notes(outcome: PhaseOutcome, standing: dict[str, tuple[Order, ...]],
                         ruleset: Ruleset) -> PhaseOutcome:
    """Say in the report which orders came from a perpetual set (000 II(4))."""
    if not standing:
        return outcome
    note = perpetual_note(ruleset)
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=note) if not o.defaulted and o.order in standing.get(o.power, ()) else o
        for o in outcome.orders))


def _with_contingent_notes(outcome: PhaseOutcome, contingent: dict[str, tuple[Order, ...]],
                           source: str | None) -> PhaseOutcome:
    """Say in the report which orders came from the contingent lines sent with the moves."""
    if not contingent or source is None:
        return outcome
    note = f"from the orders sent with the {SEASON_NAMES[source[0]]} {source[1:5]} moves"
    return dataclasses.replace(outcome, orders=tuple(
        dataclasses.replace(o, note=note) if not o.defaulted and o.order in contingent.get(o.power, ()) else o
        for o in outcome.orders))


def _contingent_orders(session: Session, services: Services, game: Game, record: PhaseRecord, ruleset: Ruleset,
                       on_file: OnFile) -> dict[str, tuple[Order, ...]]:
    """contingent_minor_orders = accepted (000 II(5), 001 II(6)): in a retreat or adjustment
    phase, each power that owes orders and sent no set for it gets the orders read from the
    contingent lines of its sets for the movement phase before (S..R <- S..M; F..R and W..A <-
    F..M), against this phase's position, conditions evaluated (`conditional_adjustment_orders`).
    A set sent for this phase replaces them. power -> orders; powers with none are left out."""
    kept = contingent_for(session, game.id, game.phase, ruleset)
    if not kept:
        return {}
    source = contingent_source(game.phase) or ""  # a minor phase here: `kept` is empty otherwise
    position = engine.position_from_state(record.state)
    turn = movement_turn(session, game.id, game.phase)
    used: dict[str, tuple[Order, ...]] = {}
    for power in position.powers_to_order():
        if power in on_file.versions or power not in kept:
            continue  # a set for this phase replaces the contingent lines; no lines, nothing to read
        reading = read_contingent(kept[power], position=position, power=power, ruleset=ruleset,
                                  geography=services.geography, turn=turn)
        log.info("%s %s: %s sent no set for this phase; from the contingent orders sent with the %s %s moves: %s",
                 game.name, game.phase, power, SEASON_NAMES[source[0]], source[1:5],
                 ", ".join(map(str, reading.orders)) or "nothing usable")
        for line in reading.lines:
            if line.status == "rejected":
                log.info("%s %s: %s contingent line %r not used: %s", game.name, game.phase, power, line.text,
                         line.message)
        if reading.orders:
            used[power] = reading.orders
    return used


def _with_void_supports(outcome: PhaseOutcome, voided: list[Order],
                        notes: dict[Order, str] | None = None) -> PhaseOutcome:
    """Report each voided support as written, with the result "void", not as the hold
    the engine was given instead; `notes`: why, where the orders on the report cannot say it."""
    if not voided:
        return outcome
    by_unit = {order.unit: order for order in voided}
    notes = notes or {}
    orders = tuple(
        dataclasses.replace(o, order=by_unit[o.order.unit], results=("void",),
                            note=notes.get(by_unit[o.order.unit], o.note))
        if o.order.action == "hold" and o.order.unit in by_unit else o
        for o in outcome.orders
    )
    return dataclasses.replace(outcome, orders=orders)


def queue_reminders(services: Services, now: datetime) -> int:
    """Every reminder of every game's profile that is due (services/features/reminders.py), once per
    phase and power."""
    return reminders.queue_reminders(services, now)
