"""Filing an order set: a message's orders become the power's next set, and the sender is
answered (a confirmation, "orders unchanged", or a refusal while the GM corrects the turn).

The orders handler (services/inbox/handlers/orders.py) and held mail released by the GM
(services/features/held.py) both call `file_orders`; it raises PhaseMoved when the game was
adjudicated while the message was read, and the inbox runner leaves the message queued.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from gmserver.db.models import InboundMessage
from gmserver.db.queries.games import game_phase_for_update, open_games_with_players
from gmserver.db.queries.ordersets import add_order_set
from gmserver.db.queries.outbox import queued_since
from gmserver.db.queries.phases import phase_record, state_and_revision
from gmserver.db.queries.players import (
    games_of_address,
    player_abbreviations,
    player_now,
)
from gmserver.engine import position_from_state
from gmserver.mail.written import WrittenMail
from gmserver.reports.replies import build_orders_unchanged
from gmserver.rules.corrections import cite
from gmserver.rules.envelope import Envelope
from gmserver.rules.intake import Accept, GameView, Reject, expected_subject, heading_lines_read
from gmserver.rules.order import Order
from gmserver.rules.position import Position, describe_phase
from gmserver.rules.reading.condition_facts import contingent_source
from gmserver.rules.reading.elsewhere import belongs_elsewhere
from gmserver.rules.reading.mail import read_mail
from gmserver.rules.reading.message import MessageText
from gmserver.rules.reading.model import Reading
from gmserver.rules.reading.options import clause
from gmserver.rules.reading.rule_words import rules_in_words
from gmserver.rules.reading.sets import StoredSet, effective_contingent, effective_orders
from gmserver.rules.reading.verdict import minor_turns_at_once
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.set_feedback import SILENT, set_feedback, with_as_written
from gmserver.rules.set_standing import civil_disorder_note, status_note
from gmserver.rules.withdrawal import WITHDRAWAL_EXAMPLE, withdrawal_line
from gmserver.services.base import mails, outgoing
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import copy_to_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_limits import CONFIRMATION_KINDS, CONFIRMATIONS_PER_HOUR
from gmserver.services.game.games import game_view, turn_opened
from gmserver.services.game.on_file import as_stored
from gmserver.services.game.ordersets import contingent_on_file, movement_turn, power_stored_sets

log = logging.getLogger(__name__)


class PhaseMoved(Exception):
    """The game moved on while a message for it was being read: read it again."""


def file_orders(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                decision: Accept, now: datetime, *, notes: Sequence[str] = (), correction: bool = False,
                text: MessageText | None = None) -> str:
    """File the message's orders as the power's next set and confirm them (the orders handler,
    gmserver.services.inbox.handlers.orders, and held mail released by the GM). `notes` go first in
    the reply (what else the message
    held and what became of it). `correction`: the GM released a late set proven sent in time
    (late_with_proof, 000 VII(1)), filed even in a rolled-back turn.
    `text`: the message as read before the transaction (services.inbox.routing.prepare); read from
    the row if not given."""
    game = decision.game
    # Hold the game row until this set is committed: adjudication (which skips a locked game
    # and is retried) cannot then run between reading the phase and storing the set, and two
    # sets of one power cannot race for a version number.
    locked_phase = game_phase_for_update(session, game.id)
    if locked_phase != game.phase:
        raise PhaseMoved()
    record = state_and_revision(session, game.id, game.phase)
    assert record is not None, f"game {game.name} has no record of its current phase {game.phase}"
    if record.revision and not correction:
        return _refuse_during_correction(session, services, row, envelope, decision, now)
    position = position_from_state(record.state)
    every = power_stored_sets(session, game.id, game.phase, decision.power)
    # a proxy holder's sets and the owner's are read apart (proxy_precedence): each
    # is confirmed with what its own sender has on file
    earlier = [s for s in every if s.by_proxy == decision.by_proxy]
    # objective_only conditions in a retreat or adjustment set may test what the moves before
    # decided (centres gained, units dislodged), which this phase's position no longer shows
    turn = movement_turn(session, game.id, game.phase) if position.phase_type in ("R", "A") else None
    reading = read_mail(row.raw if text is None else text, position=position, power=decision.power,
                        ruleset=game.ruleset, geography=services.geography, subject=envelope.subject,
                        previous=earlier, turn=turn,
                        player_abbreviations=_player_abbreviations(session, game, decision.power))
    # 003 [10] subject_or_body: the first lines the subject was read with are no order lines
    reading = dataclasses.replace(reading, lines=heading_lines_read(reading.lines, decision.subject, game.ruleset))
    row.game_id, row.power = game.id, decision.power
    if (other := _other_game(session, services, row, envelope, decision, reading)) is not None:
        return _refuse_other_game(session, services, row, envelope, decision, other, now)
    withdrawal = withdrawal_line(reading.lines)
    if not (reading.set_orders or reading.contingent) and withdrawal is None:
        standing = _standing(session, game, decision.power, earlier)
        if standing.orders or standing.contingent:
            # a message with no order lines (an out-of-office reply, an empty message)
            # is not an order set and replaces nothing; the player hears that the set stands
            return _keep_orders_on_file(session, services, row, envelope, decision, reading, standing, now,
                                        notes=notes)
    if withdrawal is not None and not reading.set_orders:
        reading = dataclasses.replace(reading, lines=tuple(
            dataclasses.replace(line, status="accepted", message="taken as withdrawing the orders on file")
            if line.line == withdrawal else line for line in reading.lines))
    reading = dataclasses.replace(reading, lines=with_as_written(game.ruleset, reading.lines))  # 000 III(1) (c)
    version = len(every) + 1
    new_set = _new_set(row, decision, reading, version, now)
    add_order_set(session, new_set)
    # what is on file now, under the game's combination and ordering rules
    stored = [*earlier, as_stored(SimpleNamespace(**new_set))]
    on_file = effective_orders(stored, game.ruleset)
    notes = (*notes, *reading.notes)
    player = player_now(session, game.id, decision.power)
    if player is not None and player.civil_disorder:  # 000 VII(6) ¶2: filed, not used
        notes = (civil_disorder_note(game.ruleset, decision.power), *notes)
    if (status := status_note(game.ruleset, reading.set_status)) is not None:  # 000 II(1)
        notes += (status,)
    if position.phase_type == "M":
        notes += _contingent_notes(stored, earlier, game.ruleset)
    if withdrawal is not None and not reading.set_orders:
        notes += (_withdrawal_note(on_file, game.ruleset),)
    reading = dataclasses.replace(reading, orders=on_file, notes=notes)
    log.info("inbound %s: %s order set v%d for %s %s (%d orders)", row.id, game.name, version,
             decision.power, game.phase, len(reading.orders))
    # the sender's own count: a proxy holder does not learn how many sets the owner sent
    _confirm(session, services, row, envelope, decision, reading, len(earlier) + 1, position, player, now)
    return "accepted"


def _confirm(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Accept,
             reading: Reading, version: int, position: Position, player: Row | None, now: datetime) -> None:
    """The reply to a filed set, as invalid_set_feedback, clarification_min_hours and
    confirm_each_set say (000 III(1): rules/set_feedback.py); `player`: the power's player row
    (queries.players.player_now)."""
    game = decision.game
    remarks = bool(reading.notes or decision.warnings or (reading.version and reading.version != str(version)))
    feedback = set_feedback(game.ruleset, statuses=[line.status for line in reading.lines],
                            texts=[envelope.subject or "", *(line.text for line in reading.lines)],
                            # 000 III(1) (a): on when the power has no player row
                            clarify=player is None or player.clarifications is not False,
                            deadline=game.deadline, now=now, has_remarks=remarks)
    if feedback.kind == SILENT:  # confirm_each_set = false: a set read as written is filed silently
        log.info("inbound %s: set filed without a confirmation (read as written)", row.id)
    elif _may_reply(session, row, envelope.sender, game, now):
        _queue_answer(session, services, row, envelope, decision,
                      mails.confirmation(services, envelope, decision, reading, version, position, now,
                                         feedback=feedback, player=player),
                      "confirmation", now, addressing=mails.confirmation_map(decision, reading, position, player))


def _queue_answer(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                  decision: Accept, answer: WrittenMail, kind: str, now: datetime,
                  addressing: dict[str, Any] | None = None) -> None:
    """The answer to a filed message, and its copy for the registered address when the message
    came from the power's fallback address (outgoing.registered_copy); `addressing`: what the
    outbox adds when it writes them (the confirmation's map)."""
    queue(session, answer, kind=kind, dedupe_key=f"confirm:{row.id}", now=now, game_id=decision.game.id,
          addressing=addressing)
    if (copy := outgoing.registered_copy(services, answer, decision, envelope)) is not None:
        queue(session, copy, kind=kind, dedupe_key=f"confirm:{row.id}:registered", now=now,
              game_id=decision.game.id, addressing=addressing)


def _new_set(row: InboundMessage, decision: Accept, reading: Reading, version: int, now: datetime) -> dict[str, Any]:
    """The order set row for `reading`, column -> value (engine notation at this edge: the
    database keeps strings)."""
    return dict(
        game_id=decision.game.id, power=decision.power, phase=decision.game.phase, version=version,
        inbound_id=row.id, orders=[str(o) for o in reading.set_orders],
        lines=[mails.line_as_dict(line) for line in reading.lines], received_at=now, marker=reading.version,
        is_change=reading.is_change, status=reading.set_status, unsupportable=[str(u) for u in reading.unsupportable],
        contingent=list(reading.contingent),  # contingent_minor_orders (000 II(5), 001 II(6))
        by_proxy=decision.by_proxy,  # 000 II(3), 003 [19]: sent by the power's proxy holder
    )


def _other_game(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Accept,
                reading: Reading) -> GameView | None:
    """The sender's other active game whose units the message orders (rules/reading/elsewhere.py),
    read against that game's board for the sender's power there; None when it is this game's."""
    if not any(line.status == "rejected" for line in reading.lines):
        return None
    views: dict[str, GameView] = {}
    readings: dict[str, Reading] = {}
    for game in open_games_with_players(session, [g for g in games_of_address(session, envelope.sender)
                                                  if g != decision.game.id]):
        view = game_view(game)
        power = next((p for p, (address, fallback) in view.players.items()
                      if envelope.sender in (address, fallback)), None)
        record = phase_record(session, game.id, game.phase)
        if power is None or record is None:
            continue
        views[game.name] = view
        readings[game.name] = read_mail(row.raw, position=position_from_state(record.state), power=power,
                                        ruleset=view.ruleset, geography=services.geography, subject=envelope.subject)
    name = belongs_elsewhere(reading, readings)
    return views[name] if name is not None else None


def _refuse_other_game(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                       decision: Accept, other: GameView, now: datetime) -> str:
    """Orders naming the units the sender has in another game: none is used in this one."""
    game = decision.game
    power = next(p for p, addresses in other.players.items() if envelope.sender in addresses)
    reject = Reject((f"The units these orders name are yours in game {other.name} ({power.title()}), not in "
                     f"{game.name}: none of them was used in {game.name}. To order them in {other.name}, reply to "
                     f"this mail with the subject changed to: {expected_subject(other, power)}",),
                    game=game, power=decision.power)
    log.info("inbound %s: orders for %s's units in %s sent with the subject of %s: not used", row.id,
             envelope.sender, other.name, game.name)
    queue(session, mails.rejection(services, envelope, reject, now), kind="rejection", dedupe_key=f"reject:{row.id}",
          now=now, game_id=game.id)
    return "rejected"


def _refuse_during_correction(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                              decision: Accept, now: datetime) -> str:
    """season_replay = never (002 GM ERRORS 5): a rolled-back turn is adjudicated again from the
    orders on file, which only the GM corrects (services.features.corrections)."""
    game = decision.game
    row.game_id, row.power = game.id, decision.power
    reject = Reject((f"{describe_phase(game.phase)} is being corrected by the GM and will be adjudicated again "
                     f"from the orders on file: a season is never replayed, so new orders for it are not "
                     f"used ({cite(game.ruleset, 'season_replay')}). Write to the GM if an order on file was "
                     "misread.",), game=game, power=decision.power)
    refusal = mails.rejection(services, envelope, reject, now)
    queue(session, refusal, kind="rejection", dedupe_key=f"reject:{row.id}", now=now, game_id=game.id)
    copy_to_gm(session, services, game.id, refusal, "refusal", f"reject:{row.id}", now)  # gm_copies
    return "rejected"


def _contingent_notes(stored: Sequence[StoredSet], earlier: Sequence[StoredSet], ruleset: Ruleset) -> tuple[str, ...]:
    """contingent_minor_orders (000 II(5), 001 II(6)): say which lines stand now, or that this set
    dropped those of an earlier one (they are replaced with the set, never merged line by line)."""
    if (kept_lines := effective_contingent(stored, ruleset)) and minor_turns_at_once(ruleset):
        # 003 [5]: no turn of their own follows, so no set can replace them
        return ((f"Kept for the retreats and builds processed at once after these moves "
                 f"({rules_in_words(clause(ruleset, 'contingent_minor_orders'))}): {' / '.join(kept_lines)}"),)
    if kept_lines:
        return ((f"Kept for the retreat or adjustment turn after these moves, and used there only if you "
                 f"send no set for that turn: {' / '.join(kept_lines)}"),)
    if effective_contingent(earlier, ruleset):
        return (("The retreat and adjustment lines of your earlier set are no longer kept: this set "
                 "replaces them."),)
    return ()


def _withdrawal_note(on_file: Sequence[Order], ruleset: Ruleset) -> str:
    if not on_file:
        return "You withdrew your orders: none are on file now."
    # merge_per_unit (000 III(4)): a set changes only the units it orders, so no set can empty it
    return (f"You asked to withdraw your orders, but under this game's rules ({clause(ruleset, 'set_combination')}) "
            "a new set changes only the units it orders, so the orders below stand. To have a unit hold, order "
            "it to hold.")


def _may_reply(session: Session, row: InboundMessage, address: str, game: GameView, now: datetime) -> bool:
    """CONFIRMATIONS_PER_HOUR: whether the reply to a filed set may go out; logs why not.

    Counted per address and game since the later of an hour ago and the start of the current
    phase: a loop runs within one phase (it answers confirmations that name it), while a game on
    short turns (the demo adjudicates every 15 s) confirms a set or two per phase."""
    since = now - timedelta(hours=1)
    phase_started = turn_opened(session, game)
    if phase_started is not None and phase_started > since:
        since = phase_started
    sent = queued_since(session, since, kinds=CONFIRMATION_KINDS, recipient=address, game_id=game.id)
    if sent < CONFIRMATIONS_PER_HOUR:
        return True
    log.warning("inbound %s from %s filed without a reply: %d replies already sent to it since %s",
                row.id, address, sent, since.isoformat(timespec="minutes"))
    return False


@dataclass(frozen=True)
class _Standing:
    """What stands for a power this phase before a new message: the orders its sets add up to,
    and (in a retreat or adjustment phase with no set yet) the contingent lines of its moves."""

    orders: tuple[Order, ...]
    contingent: tuple[str, ...]
    version: int | None


def _standing(session: Session, game: GameView, power: str, earlier: Sequence[StoredSet]) -> _Standing:
    if earlier:
        return _Standing(effective_orders(earlier, game.ruleset), effective_contingent(earlier, game.ruleset),
                         len(earlier))
    source = contingent_source(game.phase)
    if source is None or game.ruleset.contingent_minor_orders != "accepted":
        return _Standing((), (), None)
    # contingent_minor_orders (000 II(5), 001 II(6)): a set for this phase would replace them
    return _Standing((), contingent_on_file(session, game.id, source, game.ruleset).get(power, ()), None)


def _keep_orders_on_file(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                         decision: Accept, reading: Reading, standing: _Standing, now: datetime, *,
                         notes: Sequence[str] = ()) -> str:
    game = decision.game
    log.info("inbound %s: no orders in it; %s %s keeps its orders for %s (version %s)", row.id, game.name,
             decision.power, game.phase, standing.version or "contingent")
    if _may_reply(session, row, envelope.sender, game, now):
        context = build_orders_unchanged(
            game_name=game.name, power=decision.power, phase=game.phase, deadline=game.deadline,
            readings=reading.lines, orders_on_file=standing.orders, version=standing.version,
            geography=services.geography, kept_lines=standing.contingent, withdraw_line=WITHDRAWAL_EXAMPLE,
            timezone=game.timezone,
        )
        body = services.composer.render(context.template, context)
        if notes:
            body = "\n".join(notes) + "\n\n" + body
        message = outgoing.written_reply(services, envelope, body, now,
                                         secret=outgoing.reply_secret(decision, envelope))
        _queue_answer(session, services, row, envelope, decision, message, "orders-unchanged", now)
    return "unchanged"


def _player_abbreviations(session: Session, game: GameView, power: str) -> dict[str, str] | None:
    """004 I(1) ¶2: the player's own list, where the ruleset allows such lists."""
    if not game.ruleset.player_abbreviation_lists:
        return None
    return player_abbreviations(session, game.id, power) or None

