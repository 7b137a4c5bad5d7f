"""Order sets held for the GM (hold_for_gm, 001 II(4) "may, but is not required to
accept"): the message is stored with status "held" (`gmserver inbox list --status held`), the
player is told it waits for the GM, and the GM releases it (filed for the turn it was for, if
that turn is still open, and confirmed as any set) or refuses it (the player gets the refusal).

Exactly once each: release and refuse claim the row under its lock while it is "held"; the
first to commit moves it to "done", and any later release or refusal finds nothing held.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gmserver.db.models import Game, InboundMessage
from gmserver.db.queries.games import game_phase_for_update
from gmserver.db.queries.inbound import held_for_update
from gmserver.db.session import transaction
from gmserver.reports.words import format_time
from gmserver.rules.corrections import cite
from gmserver.rules.envelope import Envelope, parse_envelope
from gmserver.rules.intake import Accept, GameView, Hold, Reject, expected_subject, subject_reading
from gmserver.rules.position import describe_phase
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.game.filing import file_orders
from gmserver.services.game.games import GameError, game_view
from gmserver.db import queries
from gmserver.services.base.gm_notices import notify_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_limits import PLAYER_REFUSALS_PER_HOUR, replies_since

log = logging.getLogger(__name__)

HELD = "held-for-gm"  # the outcome (and, through intake.process_one, the status "held")
KIND = "held"  # the outbox kind of the notice that a message is held


class HeldError(GameError):
    """The message is not held (any more), or its turn is over: says which."""


def hold(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Hold,
         now: datetime) -> str:
    """Keep the message for the GM and tell the sender (at most PLAYER_REFUSALS_PER_HOUR such
    notices an hour to one address, like refusals)."""
    accept = decision.accept
    row.game_id, row.power, row.held_phase = accept.game.id, accept.power, accept.phase
    log.info("inbound %s from %s held for the GM: %s", row.id, envelope.sender, " ".join(decision.reasons))
    if replies_since(session, envelope.sender, (KIND,), now - timedelta(hours=1)) >= PLAYER_REFUSALS_PER_HOUR:
        log.warning("inbound %s from %s held without a notice: too many notices this hour", row.id, envelope.sender)
        return HELD
    game = accept.game
    body = services.composer.render("player/held.txt.j2", {
        "original_subject": envelope.subject or "(no subject)", "original_date": envelope.date,
        "game_name": game.name, "phase": describe_phase(game.phase),
        "deadline": format_time(game.deadline, game.timezone) if game.deadline is not None else None,
        "reasons": decision.reasons, "expected_subject": decision.expected_subject,
        "clause": cite(game.ruleset, decision.option),
    })
    queue(session, mails.notice(services, envelope, accept, body, now), kind=KIND, dedupe_key=f"held:{row.id}",
          now=now, game_id=game.id)
    notify_gm(session, services, key=f"gm:held:{row.id}", game_id=game.id, now=now,
              subject=f"gmserver: {game.name}: {accept.power.title()}'s orders wait for you (message {row.id})",
              paragraphs=[f"Game {game.name}: a message from {envelope.sender} for {accept.power.title()}, "
                          f"{describe_phase(accept.phase)}, is held for you ({cite(game.ruleset, decision.option)}): "
                          + " ".join(decision.reasons),
                          f"Read it with `gmserver inbox show {row.id}`; accept it with `gmserver inbox release "
                          f"{row.id}` or refuse it with `gmserver inbox refuse {row.id} --reason TEXT` (or mail "
                          f"`release {game.name} {row.id}` / `refuse {game.name} {row.id} REASON`)."
                          + _roll_back_first(accept.phase, game.phase, game.name, quote="`")])
    return HELD


def _roll_back_first(held_phase: str, current_phase: str, game_name: str, *, quote: str) -> str:
    """000 VII(1): a late set proven sent in time is for a turn already adjudicated; releasing it
    files it only once that turn is current again."""
    if held_phase == current_phase:
        return ""
    return (f" {describe_phase(held_phase)} is already adjudicated: to use it, roll that turn back first "
            f"({quote}gmserver game rollback {game_name}{quote}), then release it.")


@dataclass(frozen=True)
class Decided:
    inbound_id: int
    game: str
    power: str
    phase: str
    outcome: str  # "released" (filed and confirmed) or "refused"


def release(services: Services, inbound_id: int, now: datetime, *, by: str = "cli") -> Decided:
    """release_in, in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        return release_in(session, services, inbound_id, now, by=by)


def release_in(session: Session, services: Services, inbound_id: int, now: datetime, *, by: str,
               game_name: str | None = None) -> Decided:
    """File the held message as the power's orders for the turn it was for, as if accepted when it
    arrived, and confirm it; HeldError if it is not held (for `game_name`, when given) or that
    turn is over."""
    row, game = _claim(session, inbound_id, game_name)
    if game.status != "active" or game_phase_for_update(session, game.id) != row.held_phase:
        raise HeldError(f"message {inbound_id} was for {describe_phase(row.held_phase or '?')}, which is over "
                        f"({game.name} is at {describe_phase(game.phase)}): "
                        + (f"to use it, roll that turn back first (gmserver game rollback {game.name}), then "
                           f"release it; or refuse it (gmserver inbox refuse {inbound_id})" if game.status == "active"
                           else f"refuse it instead (gmserver inbox refuse {inbound_id})"))
    view = game_view(game)
    envelope = parse_envelope(row.raw)
    option = _option(view, envelope)
    note = (f"The GM accepted this message, which was held for the GM ({cite(view.ruleset, option)}).",)
    decision = Accept(game=view, power=row.power or "", phase=view.phase,
                      subject=subject_reading(envelope.subject, view), warnings=note)
    # a late set proven sent in time is a correction of the turn (late_with_proof):
    # filed even after the GM rolled the turn back to use it
    file_orders(session, services, row, envelope, decision, now, correction=option == "late_with_proof")
    row.status, row.outcome, row.processed_at = "done", "released", now
    queries.gm_actions.record_action(session, game.id, "release", {"inbound": inbound_id}, by, now,
                                     f"message {inbound_id} released: filed as {row.power}'s orders for "
                                     f"{describe_phase(row.held_phase or '')} and confirmed")
    return Decided(inbound_id, game.name, row.power or "", row.held_phase or "", "released")


def refuse(services: Services, inbound_id: int, now: datetime, reason: str | None = None, *,
           by: str = "cli") -> Decided:
    """refuse_in, in its own transaction (the command line)."""
    with transaction(services.sessions) as session:
        return refuse_in(session, services, inbound_id, now, reason, by=by)


def refuse_in(session: Session, services: Services, inbound_id: int, now: datetime, reason: str | None = None, *,
              by: str, game_name: str | None = None) -> Decided:
    """Answer the held message's sender with the GM's refusal; HeldError if it is not held (for
    `game_name`, when given)."""
    row, game = _claim(session, inbound_id, game_name)
    view = game_view(game)
    envelope = parse_envelope(row.raw)
    reasons = (f"The GM did not accept this message, which was held for the GM "
               f"({cite(view.ruleset, _option(view, envelope))}).",)
    if reason:
        reasons += (f"The GM says: {reason}",)
    # a game that has ended accepts no subject any more: none is offered
    expected = expected_subject(view, row.power) if game.status != "finished" else None
    decision = Reject(reasons, expected_subject=expected, game=view, power=row.power)
    queue(session, mails.rejection(services, envelope, decision, now), kind="rejection",
          dedupe_key=f"reject:{row.id}", now=now, game_id=game.id)
    row.status, row.outcome, row.processed_at = "done", "refused", now
    queries.gm_actions.record_action(session, game.id, "refuse", {"inbound": inbound_id, "reason": reason}, by, now,
                                     f"message {inbound_id} refused; {row.power} told")
    return Decided(inbound_id, game.name, row.power or "", row.held_phase or "", "refused")


def refuse_all_of_game(session: Session, services: Services, game: Game, now: datetime, *, reason: str,
                       by: str) -> int:
    """Answer every message held for `game` with `reason` (the game has ended: nothing held for it
    can be used any more, and a message left held would wait for ever); how many."""
    rows = queries.inbound.held_of_game(session, game.id)
    for row in rows:
        refuse_in(session, services, row.id, now, reason, by=by)
    return len(rows)


def _claim(session: Session, inbound_id: int, game_name: str | None) -> tuple[InboundMessage, Game]:
    row = held_for_update(session, inbound_id)
    if row is None or row.game_id is None:
        raise HeldError(f"message {inbound_id} is not held for the GM (released or refused already, or never "
                        "held: see `gmserver inbox list --status held`)")
    game = session.get(Game, row.game_id)
    assert game is not None
    if game_name is not None and game.name != game_name:
        raise HeldError(f"message {inbound_id} is not for {game_name} (it is for {game.name})")
    return row, game


def _option(view: GameView, envelope: Envelope) -> str:
    """Which option held the message: hold_for_gm for the wrong turn or for the subject, or
    late_with_proof (000 VII(1)) for a set whose subject holds nothing against it (or names the
    turn just adjudicated, where a wrong turn is not held)."""
    reading = subject_reading(envelope.subject, view)
    if reading.wrong_turn:
        return "season_mismatch_policy" if view.ruleset.season_mismatch_policy == "hold_for_gm" else "late_with_proof"
    return "nonconforming_subject_policy" if reading.problems else "late_with_proof"
