"""GM corrections: an order set the GM writes for a power before the deadline, and
the rollback of the last adjudication within the profile's correction window (000 VIII(1)).

Each runs in the caller's transaction with the game row locked (`*_in`, for GM mail:
services.commands.gm_commands) or in its own (the command line), so that neither races an adjudication or
another GM action: a rollback that finds the game already moved (or already rolled back) is
refused with the rule that forbids it, and the mail it sends is queued under dedupe keys that
make it once-only. Each is recorded in gm_actions (by "cli" or the GM's address).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage

from sqlalchemy.orm import Session

from gmserver.db import queries
from gmserver.db.models import Game, OrderSet, PhaseRecord, Player
from gmserver.db.session import transaction
from gmserver.engine import position_from_state
from gmserver.reports.extras import withdrawn_by_correction_calendar
from gmserver.reports.words import canonical_key, format_time, name_order
from gmserver.rules.corrections import Adjudicated, cite, extension_on_request, rollback_refusal
from gmserver.rules.position import describe_phase
from gmserver.rules.reading.reader import read_orders
from gmserver.rules.reading.sets import effective_orders
from gmserver.services.base import mails, outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import announce, deadline_event
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_tokens import token_of
from gmserver.services.features.nmr import restore_missed
from gmserver.services.game.games import GameError, locked_game
from gmserver.services.game.on_file import as_stored
from gmserver.services.game.ordersets import movement_turn, power_stored_sets
from gmserver.services.game.schedule import fresh_deadline

log = logging.getLogger(__name__)


class CorrectionError(GameError):
    """A correction the house rules (or the game's state) do not allow; says which and why."""


# --- an order set written by the GM -----------------------------------------------------------


@dataclass(frozen=True)
class Corrected:
    game: str
    power: str
    phase: str
    version: int
    lines: tuple[str, ...]  # each line as read: "A PAR - BUR: accepted"
    on_file: tuple[str, ...]  # the orders on file for the power now
    informed: bool  # the player's mail was queued


def correct_orders(services: Services, name: str, power: str, text: str, now: datetime, *,
                   by: str = "cli") -> Corrected:
    """correct_orders_in, in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        return correct_orders_in(session, services, locked_game(session, name), power, text, by=by, now=now)


def correct_orders_in(session: Session, services: Services, game: Game, power: str, text: str, *, by: str,
                      now: datetime) -> Corrected:
    """File `text` as the power's next order set for the current phase, marked as the GM's, read
    by the same reader as a player's set; the player is told. Refused (nothing stored) when a
    line cannot be read: the GM corrects it and tries again. `game` is locked by the caller."""
    if game.status != "active":
        raise CorrectionError(f"{game.name} is {game.status}: there are no orders to correct")
    player = _player(game, power)
    ruleset = queries.games.ruleset_of(game)
    position = position_from_state(queries.phases.current_record(session, game).state)
    earlier = power_stored_sets(session, game.id, game.phase, player.power)
    turn = movement_turn(session, game.id, game.phase) if position.phase_type in ("R", "A") else None
    reading = read_orders(text, position=position, power=player.power, ruleset=ruleset,
                          geography=services.geography, previous=earlier, turn=turn)
    shown = tuple(f"{line.text.strip()}: {line.status}" + (f" ({line.message})" if line.message else "")
                  for line in reading.lines if line.text.strip())
    if problems := [line for line in reading.lines if line.status == "rejected"]:
        raise CorrectionError("not filed: " + "; ".join(f"{p.text.strip()!r}: {_to_the_gm(p.message or '', player.power)}"
                                                        for p in problems))
    if not reading.set_orders:
        raise CorrectionError(f"not filed: no order for a unit of {player.power.title()} in {text!r}")
    new_set = OrderSet(
        game_id=game.id, power=player.power, phase=game.phase, version=len(earlier) + 1, inbound_id=None,
        orders=[str(o) for o in reading.set_orders], lines=[mails.line_as_dict(line) for line in reading.lines],
        received_at=now, marker=reading.version, is_change=reading.is_change, status=reading.set_status,
        unsupportable=[str(u) for u in reading.unsupportable], contingent=list(reading.contingent), by_gm=True)
    session.add(new_set)
    # the database JSON, the GM's log and the mail keep engine notation: str(order) at this edge
    on_file = tuple(str(o) for o in effective_orders([*earlier, as_stored(new_set)], ruleset))
    in_words = tuple(str(name_order(o, services.geography))
                     for o in sorted(effective_orders([*earlier, as_stored(new_set)], ruleset), key=canonical_key))
    informed = queue(session, _orders_mail(services, game, player, shown, in_words, now), kind="gm-orders",
                     now=now, game_id=game.id,
                     dedupe_key=f"gm-orders:{game.id}:{game.phase}:{player.power}:{new_set.version}")
    done = Corrected(game.name, player.power, game.phase, new_set.version, shown, tuple(on_file), informed)
    queries.gm_actions.record_action(session, game.id, "orders", {"power": player.power, "orders": text}, by, now,
                                     f"{player.power}'s orders for {game.phase}, version {new_set.version}: "
                                     f"{', '.join(on_file) or 'none'}")
    return done


# The reader speaks to the player whose set it reads; the GM wrote this set for that player.
_TO_THE_GM = ((re.compile(r"\bYou have\b"), "{power} has"), (re.compile(r"\byou have\b"), "{power} has"),
              (re.compile(r"\bnot yours\b"), "not {power}'s"), (re.compile(r"\b[Yy]our\b"), "{power}'s"))


def _to_the_gm(message: str, power: str) -> str:
    """"You have no unit in Picardy." -> "Austria has no unit in Picardy." (said to the GM)."""
    for pattern, words in _TO_THE_GM:
        message = pattern.sub(words.format(power=power.title()), message)
    return message


def _player(game: Game, power: str) -> Player:
    for player in game.players:
        if player.power == power.upper():
            return player
    raise CorrectionError(f"{game.name} has no power {power!r} (powers: "
                          f"{', '.join(p.power for p in game.players)})")


def _orders_mail(services: Services, game: Game, player: Player, lines: tuple[str, ...], on_file: Sequence[str],
                 now: datetime) -> EmailMessage:
    body = services.composer.render("player/gm_orders.txt.j2", {
        "game_name": game.name, "power_name": player.power.title(), "phase": describe_phase(game.phase),
        "lines": lines, "on_file": on_file,
        "deadline": format_time(game.deadline, game.timezone) if game.deadline is not None else None,
    })
    return outgoing.message(services, to=player.address,
                            subject=f"{game.name}: the GM corrected your orders for {describe_phase(game.phase)}",
                            body=body, now=now, secret=token_of(player, game.phase))


# --- rolling back the last adjudication -------------------------------------------------------


@dataclass(frozen=True)
class RolledBack:
    game: str
    phase: str  # the turn that is current again, with its orders on file
    undone: str  # the turn the rolled-back adjudication had opened
    deadline: datetime | None  # None: it waits for the GM (`gmserver adjudicate NAME`)
    notices: int  # correction notices queued (correction_broadcast)


def rollback(services: Services, name: str, now: datetime, *, deadline: datetime | None = None,
             replay: bool = False, expected_phase: str | None = None, by: str = "cli",
             reported: datetime | None = None) -> RolledBack:
    """rollback_in, in its own transaction (the command line). `expected_phase`: refuse if the
    game is no longer there."""
    with transaction(services.sessions) as session:
        game = locked_game(session, name)
        if expected_phase is not None and game.phase != expected_phase:
            raise CorrectionError(f"{game.name} is at {game.phase} now, not {expected_phase}: nothing was rolled back")
        done = rollback_in(session, services, game, now, deadline=deadline, replay=replay, by=by, reported=reported)
    log.info("%s: adjudication of %s rolled back; %d correction notices queued", done.game, done.phase, done.notices)
    return done


def rollback_in(session: Session, services: Services, game: Game, now: datetime, *, deadline: datetime | None,
                replay: bool, by: str, reported: datetime | None = None) -> RolledBack:
    """Undo the game's last adjudication (000 VIII(1), 001 VI(1), 002 GM ERRORS 2): the phase it
    adjudicated becomes current again with its orders on file, every player gets a correction
    notice, and the phase is adjudicated again at
    `deadline` (the daemon) or by `gmserver adjudicate` when there is none. The missed turns it
    counted are undone with it (000 VII(6)): its re-adjudication counts them again from the
    orders then on file (services.turn.turns)."""
    ruleset = queries.games.ruleset_of(game)
    current = queries.phases.current_record(session, game)
    undone = queries.phases.last_adjudication(session, game.id, current.id)
    last = None if not undone or undone[0].adjudicated_at is None else Adjudicated(
        undone[0].phase, undone[-1].adjudicated_at,  # type: ignore[arg-type]
        # the current turn was adjudicated and published once already, then rolled back itself
        followed_by_another=current.revision > 0)
    reopened = current.phase if current.revision > 0 else None
    if (refusal := rollback_refusal(ruleset, last, now, replay=replay, reopened=reopened,
                                    reported=reported)) is not None:
        raise CorrectionError(refusal)
    record, opened, opened_deadline = undone[0], current.phase, game.deadline
    if record.missed_before is not None:  # 000 VII(6): the missed turns it counted are undone with it
        restore_missed(game, record.missed_before)
    _reopen(record, game, now, deadline)
    for later in (*undone[1:], current):  # 003 [5]: the retreats and builds processed with the moves
        session.delete(later)
    game.phase, game.deadline, game.status = record.phase, deadline, "active"
    notices = _announce(session, services, game, record, opened, opened_deadline, now)
    when = deadline.isoformat() if deadline else "when the GM adjudicates it"
    queries.gm_actions.record_action(
        session, game.id, "rollback", {"phase": record.phase, "deadline": deadline.isoformat() if deadline else None},
        by, now, f"the adjudication of {describe_phase(record.phase)} was rolled back; it is adjudicated again {when}")
    return RolledBack(game.name, record.phase, opened, deadline, notices)


def _reopen(record: PhaseRecord, game: Game, now: datetime, deadline: datetime | None) -> None:
    """The phase record as before its adjudication; what that adjudication said is kept."""
    record.superseded = [*(record.superseded or []), {
        "adjudicated_at": record.adjudicated_at.isoformat() if record.adjudicated_at else None,
        "rolled_back_at": now.isoformat(), "orders": record.orders, "results": record.results,
        "next_phase": game.phase, "next_deadline": game.deadline.isoformat() if game.deadline else None,
    }]
    record.revision += 1
    record.adjudicated_at, record.orders, record.results, record.deadline = None, None, None, deadline


def _announce(session: Session, services: Services, game: Game, record: PhaseRecord, undone: str,
              undone_deadline: datetime | None, now: datetime) -> int:
    """correction_broadcast = all_players (002 GM ERRORS 4): every player hears of the correction
    (once per rollback: the dedupe key names the revision), with the event the withdrawn report
    put in their calendars for the turn `undone` (due at `undone_deadline`) withdrawn too."""
    ruleset = queries.games.ruleset_of(game)
    body_context = {
        "game_name": game.name, "phase": describe_phase(record.phase), "undone": describe_phase(undone),
        "deadline": format_time(game.deadline, game.timezone) if game.deadline is not None else None,
        "replay_clause": cite(ruleset, "season_replay"), "broadcast_clause": cite(ruleset, "correction_broadcast"),
        "extension": ruleset.extension_after_correction,
        "extension_clause": cite(ruleset, "extension_after_correction"),
    }
    body = services.composer.render("player/correction.txt.j2", body_context)
    # the deadline, pause and resume mails move the report's event; so does this one (QA walkthrough)
    calendar = None if undone_deadline is None else withdrawn_by_correction_calendar(
        game_name=game.name, phase=undone, phase_name=describe_phase(undone), deadline=undone_deadline,
        corrected_phase_name=describe_phase(record.phase), now=now, domain=services.composer.domain)
    queued = 0
    for player in game.players:
        message = outgoing.message(services, to=player.address,
                                   subject=f"{game.name}: correction of {describe_phase(record.phase)}", body=body,
                                   now=now, secret=token_of(player, game.phase))
        if calendar is not None:
            message.add_attachment(calendar, maintype="text", subtype="calendar", filename="deadline.ics")
        queued += queue(session, message, kind="correction", now=now, game_id=game.id,
                        dedupe_key=f"correction:{game.id}:{record.phase}:{record.revision}:{player.power}")
    return queued


# --- the extension one request gives after a correction -------------------------------------


def extension_on_delay_request(session: Session, services: Services, game_id: int, power: str, *, by: str,
                               now: datetime) -> str | None:
    """extension_after_correction = on_single_request (002 GM ERRORS 3): a player's DELAY
    request in the turn that follows a correction extends its deadline, once per correction,
    for everyone (recorded, every player told). What to answer the player; None when the rule
    gives nothing here (the request then waits for the GM, as any delay request)."""
    game = queries.games.game_for_no_key_update(session, game_id)
    if game is None or game.status != "active" or game.paused:
        return None
    ruleset = queries.games.ruleset_of(game)
    if ruleset.extension_after_correction != "on_single_request":
        return None
    current = queries.phases.current_record(session, game)
    before = queries.phases.last_adjudication(session, game.id, current.id)
    # this turn was opened by the re-adjudication of a rolled-back (corrected) turn
    after_correction = bool(before) and before[0].revision > 0 and before[-1].adjudicated_at == current.opened_at
    extended_before = any(action.action == "extension" and action.arguments.get("phase") == game.phase
                          for action in queries.gm_actions.actions_of(session, game.id))
    new = extension_on_request(ruleset, deadline=game.deadline, fresh=fresh_deadline(game, ruleset, now),
                               after_correction=after_correction, extended_before=extended_before)
    if new is None:
        return None
    clause = cite(ruleset, "extension_after_correction")
    when = str(format_time(new, game.timezone))
    game.deadline = current.deadline = new
    row = queries.gm_actions.record_action(session, game.id, "extension", {"phase": game.phase, "power": power},
                                           by, now, f"deadline of {describe_phase(game.phase)} extended to {when} "
                                                    f"on {power.title()}'s request after the correction ({clause})")
    announce(session, services, game, row.id, f"the deadline of {describe_phase(game.phase)} is extended",
             [f"After the GM's correction, {power.title()} asked for an extension; one request is enough "
              f"({clause}). The new deadline is {when}."], now,
             calendar=deadline_event(services, game, now))  # the report's calendar event, moved
    return (f"Your request is granted: after a correction one request is enough ({clause}). The deadline of "
            f"{describe_phase(game.phase)} is now {when}, for every player.")
