"""Inbound mail: store it first, then process each message in its own transaction.

DESIGN "a message's life": the raw bytes are committed before anything else happens (and
before the IMAP server is told \\Seen or the SMTP client gets its 250); processing claims a
pending row, does everything the message causes (order set, replies in the outbox) and marks it
done in one transaction; an exception parks the row as `failed` with its traceback.
"""

from __future__ import annotations

import dataclasses
import functools
import email.policy
import hashlib
import json
import logging
import re
import traceback
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from datetime import datetime, timedelta

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage, PhaseRecord, Player
from gmserver.db.session import transaction
from gmserver.engine import position_from_state
from gmserver.rules.intake import Accept, Envelope, GameView, Ignore, Reject, decide, parse_envelope
from gmserver.rules.reading import effective_contingent, effective_orders, extract_order_text, read_orders
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.safetext import safe_text
from gmserver.services import mails
from gmserver.services.context import Services
from gmserver.services.ordersets import as_stored, movement_turn, stored_sets
from gmserver.services.outbox import queue
from gmserver.services.senders import check_sender

log = logging.getLogger(__name__)


def fingerprint(raw: bytes) -> tuple[str, str | None]:
    """(fingerprint, Message-ID). Message-ID plus a hash of the body, so that the same message
    delivered twice along different paths (different Received: headers) is stored once."""
    body = raw.partition(b"\r\n\r\n")[2] if b"\r\n\r\n" in raw else raw.partition(b"\n\n")[2]
    # the header parser unfolds a Message-ID continued on the next line
    value = BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw).get("Message-ID")
    message_id = safe_text(" ".join(str(value).split()))[:900] if value is not None else ""
    message_id = message_id or None
    if message_id is None:
        return hashlib.sha256(raw).hexdigest(), None
    digest = hashlib.sha256(message_id.encode() + b"\0" + body.replace(b"\r\n", b"\n").rstrip()).hexdigest()
    return digest, message_id


@dataclass(frozen=True)
class Stored:
    id: int
    duplicate: bool


def store(sessions, raw: bytes, *, source: str, now: datetime, mailbox: str | None = None,
          uidvalidity: int | None = None, uid: int | None = None, received_at: datetime | None = None) -> Stored:
    """Insert the raw message unless it is already stored; commit before returning.

    `received_at`: when the message reached the GM (IMAP INTERNALDATE); deadlines are judged by
    it, not by when gmserver got round to fetching it. Defaults to `now`."""
    digest, message_id = fingerprint(raw)
    with transaction(sessions) as session:
        existing = session.scalar(select(InboundMessage.id).where(InboundMessage.fingerprint == digest))
        if existing is not None:
            return Stored(existing, True)
    try:
        with transaction(sessions) as session:
            row = InboundMessage(fingerprint=digest, message_id=message_id, source=source, mailbox=mailbox,
                                 uidvalidity=uidvalidity, uid=uid, raw=raw, received_at=received_at or now,
                                 status="pending")
            session.add(row)
            session.flush()
            return Stored(row.id, False)
    except IntegrityError:  # another worker stored it between our check and insert
        with transaction(sessions) as session:
            return Stored(session.scalar(select(InboundMessage.id).where(InboundMessage.fingerprint == digest)), True)


def pending_ids(sessions) -> list[int]:
    with transaction(sessions) as session:
        return list(session.scalars(select(InboundMessage.id).where(InboundMessage.status == "pending")
                                    .order_by(InboundMessage.id)))


def process_pending(services: Services, now: datetime) -> list[tuple[int, str | None]]:
    """Process every pending message, oldest first, until none is left (messages stored while
    this runs included); returns (id, outcome) for each one done."""
    done: list[tuple[int, str | None]] = []
    tried: set[int] = set()
    while ids := [row_id for row_id in pending_ids(services.sessions) if row_id not in tried]:
        for row_id in ids:
            tried.add(row_id)
            if (outcome := process_one(services, row_id, now)) is not None:
                done.append((row_id, outcome))
    return done


class PhaseMoved(Exception):
    """The game moved on while a message for it was being read: read it again."""


def process_one(services: Services, inbound_id: int, now: datetime) -> str | None:
    """Process one stored message exactly once; None if someone else has it or it is done."""
    try:
        with transaction(services.sessions) as session:
            row = session.scalar(select(InboundMessage)
                                 .where(InboundMessage.id == inbound_id, InboundMessage.status == "pending")
                                 .with_for_update(skip_locked=True))
            if row is None:
                return None
            outcome = _handle(session, services, row, now)
            row.status, row.outcome, row.processed_at = "done", outcome, now
            return outcome
    except PhaseMoved:
        log.info("inbound message %s: its game was adjudicated meanwhile; it stays queued", inbound_id)
        return None
    except Exception as problem:  # noqa: BLE001  park it for the GM; never lose it, never crash the loop
        summary = f"{type(problem).__name__}: {(str(problem).splitlines() or [''])[0]}"
        error = summary + "\n\n" + traceback.format_exc()
        log.error("inbound message %s parked: %s", inbound_id, summary)
        with transaction(services.sessions) as session:
            session.execute(update(InboundMessage)
                            .where(InboundMessage.id == inbound_id, InboundMessage.status == "pending")
                            .values(status="failed", error=error, processed_at=now))
        return "failed"


def replay(services: Services, inbound_id: int, now: datetime) -> str | None:
    """Put a parked message back in the queue and process it (after the GM fixed the cause)."""
    with transaction(services.sessions) as session:
        session.execute(update(InboundMessage)
                        .where(InboundMessage.id == inbound_id, InboundMessage.status == "failed")
                        .values(status="pending", error=None))
    return process_one(services, inbound_id, now)


# Refusals are rate-limited, so that a forged From or an auto-responder that marks nothing
# (no Auto-Submitted) cannot turn gmserver into a source of backscatter or a mail loop: an
# unknown sender is answered once a day, a player at most PLAYER_REFUSALS_PER_HOUR times an hour.
STRANGER_REPLY_INTERVAL = timedelta(days=1)
PLAYER_REFUSALS_PER_HOUR = 5


def _handle(session: Session, services: Services, row: InboundMessage, now: datetime) -> str:
    envelope = parse_envelope(row.raw)
    # deadlines are judged by when the message reached the GM, not by when it is processed
    decision = decide(envelope, _game_views(session, envelope), row.received_at)
    if isinstance(decision, Ignore):
        log.info("inbound %s from %s ignored: %s", row.id, envelope.sender or "?", decision.reason)
        return "ignored"
    if isinstance(decision, Reject):
        if decision.game is not None:
            row.game_id, row.power = decision.game.id, decision.power
        limit, interval = ((PLAYER_REFUSALS_PER_HOUR, timedelta(hours=1)) if decision.game is not None
                           else (1, STRANGER_REPLY_INTERVAL))
        if _refusals_since(session, envelope.sender, now - interval) >= limit:
            log.warning("inbound %s from %s refused without a reply: %d refusals already sent to it since %s",
                        row.id, envelope.sender, limit, (now - interval).isoformat(timespec="minutes"))
            return "ignored"
        log.info("inbound %s from %s rejected: %s", row.id, envelope.sender, " ".join(decision.reasons))
        queue(session, mails.rejection(services, envelope, decision, now), kind="rejection",
              dedupe_key=f"reject:{row.id}", now=now, game_id=decision.game.id if decision.game else None)
        return "rejected"
    # issue 6: in a "verified" game the From address alone does not make a message the power's
    if (unverified := check_sender(session, services, row, envelope, decision, now)) is not None:
        return unverified
    return _accept(session, services, row, envelope, decision, now)


def _refusals_since(session: Session, address: str, since: datetime) -> int:
    return session.scalar(select(func.count(OutboxMessage.id)).where(
        OutboxMessage.kind == "rejection", OutboxMessage.recipient == address, OutboxMessage.created_at > since))


def _accept(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
            decision: Accept, now: datetime) -> str:
    game = decision.game
    # Hold the game row until this set is committed: adjudication (which skips a locked game
    # and is retried) cannot then run between reading the phase and storing the set, and two
    # sets of one power cannot race for a version number.
    locked_phase = session.scalar(select(Game.phase).where(Game.id == game.id).with_for_update())
    if locked_phase != game.phase:
        raise PhaseMoved()
    record = session.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id,
                                                      PhaseRecord.phase == game.phase))
    assert record is not None, f"game {game.name} has no record of its current phase {game.phase}"
    position = position_from_state(record.state)
    earlier = stored_sets(session, game.id, game.phase).get(decision.power, [])
    # objective_only conditions in a retreat or adjustment set may test what the moves before
    # decided (centres gained, units dislodged), which this phase's position no longer shows
    turn = movement_turn(session, game.id, game.phase) if position.phase_type in ("R", "A") else None
    reading = read_orders(extract_order_text(row.raw), position=position, power=decision.power,
                          ruleset=game.ruleset, geography=services.geography, subject=envelope.subject,
                          previous=effective_orders(earlier, game.ruleset), turn=turn,
                          player_abbreviations=_player_abbreviations(session, game, decision.power))
    version = len(earlier) + 1
    new_set = OrderSet(
        game_id=game.id, power=decision.power, phase=game.phase, version=version, inbound_id=row.id,
        orders=list(reading.set_orders), lines=[mails.line_as_dict(line) for line in reading.lines],
        received_at=now, marker=reading.version, is_change=reading.is_change,
        status=reading.set_status, unsupportable=list(reading.unsupportable),
        contingent=list(reading.contingent),  # contingent_minor_orders (000 II(5), 001 II(6))
    )
    session.add(new_set)
    # MATRIX 2.4: what is on file now, under the game's combination and ordering rules
    stored = [*earlier, as_stored(new_set)]
    on_file = effective_orders(stored, game.ruleset)
    notes = reading.notes
    if position.phase_type == "M":
        # contingent_minor_orders (000 II(5), 001 II(6)): say which lines stand now, or that this set
        # dropped those of an earlier one (they are replaced with the set, never merged line by line)
        kept = effective_contingent(stored, game.ruleset)
        if kept:
            notes += ((f"Kept for the retreat or adjustment turn after these moves, and used there only if you "
                       f"send no set for that turn: {' / '.join(kept)}"),)
        elif effective_contingent(earlier, game.ruleset):
            notes += (("The retreat and adjustment lines of your earlier set are no longer kept: this set "
                       "replaces them."),)
    reading = dataclasses.replace(reading, orders=on_file, notes=notes)
    row.game_id, row.power = game.id, decision.power
    queue(session, mails.confirmation(services, envelope, decision, reading, version, position, now), kind="confirmation",
          dedupe_key=f"confirm:{row.id}", now=now, game_id=game.id)
    log.info("inbound %s: %s order set v%d for %s %s (%d orders)", row.id, game.name, version,
             decision.power, game.phase, len(reading.orders))
    return "accepted"


def _player_abbreviations(session: Session, game: GameView, power: str) -> dict[str, str] | None:
    """004 I(1) ¶2: the player's own list, where the ruleset allows such lists."""
    if not game.ruleset.player_abbreviation_lists:
        return None
    return session.scalar(select(Player.abbreviations).where(Player.game_id == game.id,
                                                             Player.power == power)) or None


def _game_views(session: Session, envelope: Envelope) -> list[GameView]:
    """The games this message could be about: those its subject may name (a word of the game's
    name appears in it; `decide` then reads the subject exactly) or, when it names none, the
    sender's own games, so that the refusal can say which subject would have worked."""
    subject_words = set(_words(envelope.subject))
    # finished games too, so that a late player hears the game is over
    candidates = [game_id for game_id, name in session.execute(
        select(Game.id, Game.name).where(Game.status.in_(("active", "finished"))))
        if subject_words & set(_words(name))]
    if not candidates:
        candidates = list(session.scalars(select(Player.game_id).join(Game).where(
            Game.status == "active",
            or_(Player.address == envelope.sender, Player.fallback_address == envelope.sender))))
    games = session.scalars(select(Game).where(Game.status.in_(("active", "finished")), Game.id.in_(candidates))
                            .options(selectinload(Game.players)).order_by(Game.id))
    return [game_view(game) for game in games]


def _words(text: str) -> list[str]:
    return [word for word in re.split(r"[^0-9a-z]+", text.lower()) if word]


@functools.lru_cache(maxsize=256)
def _ruleset(snapshot_json: str) -> Ruleset:
    return Ruleset.from_snapshot(json.loads(snapshot_json))


def game_view(game: Game) -> GameView:
    return GameView(
        id=game.id, name=game.name, ruleset=_ruleset(json.dumps(game.ruleset, sort_keys=True)), phase=game.phase,
        deadline=game.deadline, status=game.status,
        players={p.power: (p.address.lower(), p.fallback_address.lower() if p.fallback_address else None)
                 for p in game.players},
        secrets={p.power: p.secret for p in game.players},
    )
