"""Inbound mail: store it first, then process each message in its own transaction.

DESIGN "a message's life": the raw bytes are committed before anything else happens (and
before the IMAP server is told \\Seen or the SMTP client gets its 250); processing claims a
pending row, does everything the message causes (order set, replies in the outbox) and marks it
done in one transaction; an exception parks the row as `failed` with its traceback.
"""

from __future__ import annotations

import dataclasses
import email.policy
import hashlib
import logging
import traceback
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from datetime import datetime, timedelta
from typing import Sequence

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from gmserver.db.models import Game, InboundMessage, OrderSet
from gmserver.db.queries.games import game_phase_for_update, open_game_names, open_games_with_players, ruleset_of
from gmserver.db.queries.inbound import (
    park, pending_attempts_for_update, pending_for_update, pending_ids as pending_inbound_ids, requeue_failed,
    set_attempts, stored_with_fingerprint, uncount_claim,
)
from gmserver.db.queries.outbox import queued_since
from gmserver.db.queries.phases import last_adjudicated_at, phase_record
from gmserver.db.queries.players import games_of_address, player_abbreviations, plays_in_an_active_game
from gmserver.db.session import transaction
from gmserver.engine import position_from_state
from gmserver.rules.automated import automated_reason
from gmserver.rules.limits import Excess, first_excess
from gmserver.rules.intake import (Accept, Envelope, GameView, Ignore, Reject, decide, glance_envelope, names_game,
                                   parse_envelope)
from gmserver.reports.replies import build_orders_unchanged
from gmserver.rules.reading import (
    Reading, StoredSet, contingent_source, effective_contingent, effective_orders, extract_order_text, read_orders,
)
from gmserver.rules.ruleset import Ruleset
from gmserver.rules.safetext import safe_text
from gmserver.rules.subject import name_words
from gmserver.rules.reading.options import clause
from gmserver.rules.withdrawal import WITHDRAWAL_EXAMPLE, withdrawal_line
from gmserver.rules.mailkind import classify
from gmserver.rules.reading.message import split_message
from gmserver.services import handlers, mails
from gmserver.services.handlers.mail import Mail
from gmserver.services.context import Services
from gmserver.services.ordersets import as_stored, contingent_on_file, movement_turn, stored_sets
from gmserver.services.outbox import queue
from gmserver.services.reply_limits import (  # noqa: F401  (the limits are part of intake's interface)
    CONFIRMATION_KINDS, CONFIRMATIONS_PER_HOUR, REFUSAL_KINDS, PLAYER_REFUSALS_PER_HOUR, STRANGER_REFUSALS_PER_HOUR,
    STRANGER_REPLY_INTERVAL, replies_since as _replies_since,
)
from gmserver.services.senders import check_sender

log = logging.getLogger(__name__)


# The headers whose values are part of what a message says: a corrected re-send that changes one
# of them is a new message (hole 5: same Message-ID and body, a fixed Subject). Transport headers
# (Received, Delivered-To, Return-Path, X-Original-To...) are left out, so the same message
# arriving along two paths is stored once.
FINGERPRINT_HEADERS = ("Message-ID", "From", "Subject", "Date")


def fingerprint(raw: bytes) -> tuple[str, str | None]:
    """(fingerprint, Message-ID): a hash of the FINGERPRINT_HEADERS values (unfolded, as
    written: nothing is decoded, so this is cheap on hostile mail) and of the body."""
    headers = BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw)
    values = {name: _unfolded(headers.get_all(name) or []) for name in FINGERPRINT_HEADERS}
    first_id = headers.get("Message-ID")
    message_id = (safe_text(" ".join(str(first_id).split()))[:900] if first_id is not None else "") or None
    digest = hashlib.sha256()
    for name in FINGERPRINT_HEADERS:
        digest.update(name.encode() + b":" + values[name].encode("utf-8", "surrogateescape") + b"\0")
    digest.update(_body(raw))
    return digest.hexdigest(), message_id


def _legacy_fingerprint(raw: bytes, message_id: str | None) -> str:
    """The fingerprint gmserver gave messages before FINGERPRINT_HEADERS (Message-ID and body
    only; the whole message without a Message-ID): checked too, so that a message stored before
    an upgrade and fetched again after it is not stored twice."""
    if message_id is None:
        return hashlib.sha256(raw).hexdigest()
    body = raw.partition(b"\r\n\r\n")[2] if b"\r\n\r\n" in raw else raw.partition(b"\n\n")[2]
    return hashlib.sha256(message_id.encode() + b"\0" + body.replace(b"\r\n", b"\n").rstrip()).hexdigest()


def _unfolded(values: list) -> str:
    # compat32 keeps non-ASCII bytes as surrogates or Header objects: str() is safe on both
    return " ".join(" ".join(str(value).split()) for value in values)


def _body(raw: bytes) -> bytes:
    """The body after the first empty line, line endings normalised and trailing space dropped."""
    ends = [(index, len(separator)) for separator in (b"\r\n\r\n", b"\n\n")
            if (index := raw.find(separator)) >= 0]
    if not ends:
        return b""
    index, length = min(ends)
    return raw[index + length:].replace(b"\r\n", b"\n").rstrip()


@dataclass(frozen=True)
class Stored:
    id: int
    duplicate: bool


def store(sessions, raw: bytes, *, source: str, now: datetime, mailbox: str | None = None,
          uidvalidity: int | None = None, uid: int | None = None, received_at: datetime | None = None,
          envelope_from: str | None = None, envelope_to: Sequence[str] | None = None) -> Stored:
    """Insert the raw message unless it is already stored; commit before returning.

    `received_at`: when the message reached the GM (IMAP INTERNALDATE); deadlines are judged by
    it, not by when gmserver got round to fetching it. Defaults to `now`.
    `envelope_from`, `envelope_to`: the SMTP/LMTP envelope when the listener received it (MAIL
    FROM "" for the null sender of a bounce, which is then never answered); None over IMAP."""
    digest, message_id = fingerprint(raw)
    with transaction(sessions) as session:
        existing = stored_with_fingerprint(session, (digest, _legacy_fingerprint(raw, message_id)))
        if existing is not None:
            return Stored(existing, True)
    try:
        with transaction(sessions) as session:
            row = InboundMessage(fingerprint=digest, message_id=message_id, source=source, mailbox=mailbox,
                                 uidvalidity=uidvalidity, uid=uid, raw=raw, received_at=received_at or now,
                                 status="pending", envelope_from=envelope_from,
                                 envelope_to=list(envelope_to) if envelope_to is not None else None)
            session.add(row)
            session.flush()
            return Stored(row.id, False)
    except IntegrityError:  # another worker stored it between our check and insert
        with transaction(sessions) as session:
            return Stored(stored_with_fingerprint(session, (digest,)), True)


def pending_ids(sessions) -> list[int]:
    with transaction(sessions) as session:
        return pending_inbound_ids(session)


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


# Claims of one message that may end without a word (the process killed: out of memory, SIGKILL,
# a crash in C code) before it is parked unread: one bad message must never block those after it
# for ever, and a message that fails by chance (the host rebooted) gets two more tries.
MAX_ATTEMPTS = 3


def process_one(services: Services, inbound_id: int, now: datetime) -> str | None:
    """Process one stored message exactly once; None if someone else has it or it is done.

    The claim is counted in its own committed transaction before the work starts, so that a
    message that kills the process is known as such on the next try; after MAX_ATTEMPTS such
    claims it is parked as failed without being read again. The work itself holds the row lock
    (FOR UPDATE), so two workers never process one message. It waits for that lock rather than
    skipping a locked row: the claim was counted, and a worker that skipped here could find the
    row locked only by another's claim bookkeeping (_count_claim, _uncount_claim), so that every
    worker skipped it and a pending message was left for the next poll. The wait is short: a
    worker that is processing the message holds its lock from before our claim, which then
    finds it "busy"."""
    match _count_claim(services, inbound_id, now):
        case "busy":
            return None
        case "parked":
            return "failed"
    try:
        with transaction(services.sessions) as session:
            # no SKIP LOCKED here (see above); after the wait the status is tested again
            row = pending_for_update(session, inbound_id)
            if row is not None:
                outcome = _handle(session, services, row, now)
                row.status, row.outcome, row.processed_at = "done", outcome, now
                return outcome
        _uncount_claim(services, inbound_id)  # another worker took it between our two transactions
        return None
    except PhaseMoved:
        log.info("inbound message %s: its game was adjudicated meanwhile; it stays queued", inbound_id)
        _uncount_claim(services, inbound_id)
        return None
    except Exception as problem:  # noqa: BLE001  park it for the GM; never lose it, never crash the loop
        summary = f"{type(problem).__name__}: {(str(problem).splitlines() or [''])[0]}"
        error = summary + "\n\n" + traceback.format_exc()
        log.error("inbound message %s parked: %s", inbound_id, summary)
        with transaction(services.sessions) as session:
            park(session, inbound_id, error, now, only_pending=True)
        return "failed"


def _count_claim(services: Services, inbound_id: int, now: datetime) -> str:
    """"counted" (go on), "busy" (another worker has it, or it is no longer pending) or
    "parked" (it ended MAX_ATTEMPTS claims without a word: parked unread)."""
    with transaction(services.sessions) as session:
        attempts = pending_attempts_for_update(session, inbound_id)
        if attempts is None:
            return "busy"
        if attempts >= MAX_ATTEMPTS:
            error = (f"Processing this message stopped the processor {attempts} times (killed or crashed "
                     "before it could finish: out of memory?); parked without reading it again. "
                     "`gmserver inbox replay` tries it once more.")
            log.error("inbound message %s parked unread: it stopped the processor %d times", inbound_id, attempts)
            park(session, inbound_id, error, now, only_pending=False)
            return "parked"
        set_attempts(session, inbound_id, attempts + 1)
        return "counted"


def _uncount_claim(services: Services, inbound_id: int) -> None:
    """A claim that ended without reading the message to its end, but cleanly (the message stays
    queued): it must not count towards MAX_ATTEMPTS."""
    with transaction(services.sessions) as session:
        uncount_claim(session, inbound_id)


@dataclass(frozen=True)
class Kept:
    """A stored message as the GM reads it (`gmserver inbox show`): press, a request, a vote or
    a command is kept, not carried out, and this is where the GM reads it."""

    id: int
    status: str
    kind: str | None
    outcome: str | None
    sender: str
    subject: str
    text: str  # the text read for orders, or the request's, vote's or command's lines
    press: str  # the press sections


def kept(services: Services, inbound_id: int) -> Kept | None:
    """The stored message `inbound_id`, read as intake reads it; None if there is none. A
    message over gmserver.rules.limits is shown by its headers alone, as it was never read."""
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, inbound_id)
        if row is None:
            return None
        envelope = glance_envelope(row.raw)
        text, press = ("(not read: too large or too deep)", "") if first_excess(row.raw) else split_message(row.raw)
        return Kept(row.id, row.status, row.kind, row.outcome, envelope.sender or "?", envelope.subject,
                    safe_text(text), safe_text(press))


def replay(services: Services, inbound_id: int, now: datetime) -> str | None:
    """Put a parked message back in the queue and process it (after the GM fixed the cause)."""
    with transaction(services.sessions) as session:
        requeue_failed(session, inbound_id)
    return process_one(services, inbound_id, now)




def _handle(session: Session, services: Services, row: InboundMessage, now: datetime) -> str:
    if (excess := first_excess(row.raw)) is not None:
        return _refuse_unreadable(session, services, row, excess, now)
    envelope = _with_transport_facts(parse_envelope(row.raw), row, services.composer.domain)
    games = _game_views(session, envelope)
    order_text, press_text = split_message(row.raw)
    from_gm = not envelope.automated and envelope.sender in gm_addresses(services)
    kind = classify(subject=envelope.subject, order_text=order_text, press_text=press_text,
                    game_names=[game.name for game in games], from_gm=from_gm)
    if from_gm:
        # the GM plays no power: their mail is a command, never orders (nor a stranger's mail)
        named = [game for game in games if names_game(envelope.subject, game)]
        row.kind, row.game_id = kind.kind, named[0].id if len(named) == 1 else None
        return handlers.handle(Mail(session, services, row, envelope, kind, now, decision=None,
                                    order_text=order_text, press_text=press_text,
                                    named_game=named[0] if len(named) == 1 else None))
    # deadlines are judged by when the message reached the GM, not by when it is processed
    decision = decide(envelope, games, row.received_at, orders=kind.kind in ORDER_KINDS)
    if isinstance(decision, Ignore):
        log.info("inbound %s from %s ignored: %s", row.id, envelope.sender or "?", decision.reason)
        return "ignored"
    if isinstance(decision, Reject):
        if decision.game is not None:
            row.game_id, row.power = decision.game.id, decision.power
        if not _may_refuse(session, row, envelope, decision, now):
            return "ignored"
        log.info("inbound %s from %s rejected: %s", row.id, envelope.sender, " ".join(decision.reasons))
        queue(session, mails.rejection(services, envelope, decision, now),
              kind="stranger-refusal" if decision.stranger else "rejection",
              dedupe_key=f"reject:{row.id}", now=now, game_id=decision.game.id if decision.game else None)
        return "rejected"
    # issue 6: in a "verified" game the From address alone does not make a message the power's
    if (unverified := check_sender(session, services, row, envelope, decision, now)) is not None:
        return unverified
    row.kind = kind.kind
    if kind.kind not in ORDER_KINDS:
        # Not for orders: _accept sets these only after it holds the game row, since writing
        # the foreign key first takes a share lock on that row, and two workers each holding one
        # while asking for the game row's update lock deadlock (PostgreSQL).
        row.game_id, row.power = decision.game.id, decision.power
    return handlers.handle(Mail(session, services, row, envelope, kind, now, decision=decision,
                                order_text=order_text, press_text=press_text))


# The kinds read under the subject rules of order sets (MATRIX 2.1); the others need only the game.
ORDER_KINDS = frozenset({"orders", "orders+press"})


def gm_addresses(services: Services) -> frozenset[str]:
    """The GM's own addresses: the server's address and those of `[gm] command_addresses`."""
    return frozenset(address.lower() for address in (services.composer.gm_address, *services.gm_addresses))


def _refuse_unreadable(session: Session, services: Services, row: InboundMessage, excess: Excess,
                       now: datetime) -> str:
    """A message over a bound of gmserver.rules.limits is never parsed (that could take gigabytes):
    it is answered from a bounded glance at its headers, under the same limits as any refusal,
    and automated mail or a sender that is not one plain address gets no answer."""
    envelope = glance_envelope(row.raw)
    log.warning("inbound %s from %s too large to read: %s", row.id, envelope.sender or "?", excess.describe())
    try:
        envelope = _with_transport_facts(envelope, row, services.composer.domain)
    except Exception:  # noqa: BLE001  headers too hostile to judge: never answer them
        return "ignored"
    if envelope.automated or not envelope.sender:
        return "ignored"
    decision = Reject((
        f"{excess.describe()}, so it was not read at all.",
        "Please send your orders in a plain new message: the orders as text, without attachments, "
        "not as a reply to or a forward of other mail.",
    ), stranger=not plays_in_an_active_game(session, envelope.sender))
    if not _may_refuse(session, row, envelope, decision, now):
        return "ignored"
    queue(session, mails.rejection(services, envelope, decision, now),
          kind="stranger-refusal" if decision.stranger else "rejection", dedupe_key=f"reject:{row.id}", now=now)
    return "refused"


def _with_transport_facts(envelope: Envelope, row: InboundMessage, own_domain: str) -> Envelope:
    """What the headers alone cannot show: the SMTP envelope sender the listener kept ("" for a
    bounce) and whether an auto-reply answers one of gmserver's own Message-IDs."""
    if envelope.automated:
        return envelope
    reason = automated_reason(envelope.message, envelope_from=row.envelope_from, own_domain=own_domain)
    if reason is None:
        return envelope
    log.info("inbound %s from %s is automated: %s", row.id, envelope.sender or "?", reason)
    return dataclasses.replace(envelope, automated=True)


def _may_refuse(session: Session, row: InboundMessage, envelope: Envelope, decision: Reject, now: datetime) -> bool:
    """Whether the refusal may be sent under the limits above; logs why not."""
    hour_ago = now - timedelta(hours=1)
    if not decision.stranger:
        if _replies_since(session, envelope.sender, REFUSAL_KINDS, hour_ago) < PLAYER_REFUSALS_PER_HOUR:
            return True
        log.warning("inbound %s from %s refused without a reply: %d refusals already sent to it since %s",
                    row.id, envelope.sender, PLAYER_REFUSALS_PER_HOUR, hour_ago.isoformat(timespec="minutes"))
        return False
    since = now - STRANGER_REPLY_INTERVAL
    if _replies_since(session, envelope.sender, REFUSAL_KINDS, since) >= 1:
        log.warning("inbound %s from %s refused without a reply: it was answered once since %s",
                    row.id, envelope.sender, since.isoformat(timespec="minutes"))
        return False
    sent = queued_since(session, hour_ago, kinds=("stranger-refusal",))
    if sent >= STRANGER_REFUSALS_PER_HOUR:
        log.warning("inbound %s from %s refused without a reply: %d refusals already sent to strangers since %s",
                    row.id, envelope.sender, sent, hour_ago.isoformat(timespec="minutes"))
        return False
    return True


def _accept(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
            decision: Accept, now: datetime, *, notes: Sequence[str] = ()) -> str:
    """File the message's orders as the power's next set and confirm them (the orders handler,
    gmserver.services.handlers.orders). `notes` go first in the reply (what else the message
    held and what became of it)."""
    game = decision.game
    # Hold the game row until this set is committed: adjudication (which skips a locked game
    # and is retried) cannot then run between reading the phase and storing the set, and two
    # sets of one power cannot race for a version number.
    locked_phase = game_phase_for_update(session, game.id)
    if locked_phase != game.phase:
        raise PhaseMoved()
    record = phase_record(session, game.id, game.phase)
    assert record is not None, f"game {game.name} has no record of its current phase {game.phase}"
    position = position_from_state(record.state)
    earlier = stored_sets(session, game.id, game.phase).get(decision.power, [])
    # objective_only conditions in a retreat or adjustment set may test what the moves before
    # decided (centres gained, units dislodged), which this phase's position no longer shows
    turn = movement_turn(session, game.id, game.phase) if position.phase_type in ("R", "A") else None
    reading = read_orders(extract_order_text(row.raw), position=position, power=decision.power,
                          ruleset=game.ruleset, geography=services.geography, subject=envelope.subject,
                          previous=earlier, turn=turn,
                          player_abbreviations=_player_abbreviations(session, game, decision.power))
    row.game_id, row.power = game.id, decision.power
    withdrawal = withdrawal_line(reading.lines)
    if not (reading.set_orders or reading.contingent) and withdrawal is None:
        standing = _standing(session, game, decision.power, earlier)
        if standing.orders or standing.contingent:
            # hole 2: a message with no order lines (an out-of-office reply, an empty message)
            # is not an order set and replaces nothing; the player hears that the set stands
            return _keep_orders_on_file(session, services, row, envelope, decision, reading, standing, now,
                                        notes=notes)
    if withdrawal is not None and not reading.set_orders:
        reading = dataclasses.replace(reading, lines=tuple(
            dataclasses.replace(line, status="accepted", message="taken as withdrawing the orders on file")
            if line.line == withdrawal else line for line in reading.lines))
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
    notes = (*notes, *reading.notes)
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
    if withdrawal is not None and not reading.set_orders:
        notes += (_withdrawal_note(on_file, game.ruleset),)
    reading = dataclasses.replace(reading, orders=on_file, notes=notes)
    log.info("inbound %s: %s order set v%d for %s %s (%d orders)", row.id, game.name, version,
             decision.power, game.phase, len(reading.orders))
    if _may_reply(session, row, envelope.sender, game.id, now):
        queue(session, mails.confirmation(services, envelope, decision, reading, version, position, now),
              kind="confirmation", dedupe_key=f"confirm:{row.id}", now=now, game_id=game.id)
    return "accepted"


def _withdrawal_note(on_file: Sequence[str], ruleset: Ruleset) -> str:
    if not on_file:
        return "You withdrew your orders: none are on file now."
    # merge_per_unit (000 III(4)): a set changes only the units it orders, so no set can empty it
    return (f"You asked to withdraw your orders, but under this game's rules ({clause(ruleset, 'set_combination')}) "
            "a new set changes only the units it orders, so the orders below stand. To have a unit hold, order "
            "it to hold.")


def _may_reply(session: Session, row: InboundMessage, address: str, game_id: int, now: datetime) -> bool:
    """CONFIRMATIONS_PER_HOUR: whether the reply to a filed set may go out; logs why not.

    Counted per address and game since the later of an hour ago and the start of the current
    phase: a loop runs within one phase (it answers confirmations that name it), while a game on
    short turns (the demo adjudicates every 15 s) confirms a set or two per phase."""
    since = now - timedelta(hours=1)
    phase_started = last_adjudicated_at(session, game_id)
    if phase_started is not None and phase_started > since:
        since = phase_started
    sent = queued_since(session, since, kinds=CONFIRMATION_KINDS, recipient=address, game_id=game_id)
    if sent < CONFIRMATIONS_PER_HOUR:
        return True
    log.warning("inbound %s from %s filed without a reply: %d replies already sent to it since %s",
                row.id, address, sent, since.isoformat(timespec="minutes"))
    return False


@dataclass(frozen=True)
class _Standing:
    """What stands for a power this phase before a new message: the orders its sets add up to,
    and (in a retreat or adjustment phase with no set yet) the contingent lines of its moves."""

    orders: tuple[str, ...]
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
    if _may_reply(session, row, envelope.sender, game.id, now):
        context = build_orders_unchanged(
            game_name=game.name, power=decision.power, phase=game.phase, deadline=game.deadline,
            readings=reading.lines, orders_on_file=standing.orders, version=standing.version,
            geography=services.geography, kept_lines=standing.contingent, withdraw_line=WITHDRAWAL_EXAMPLE,
        )
        body = services.composer.render(context.template, context)
        if notes:
            body = "\n".join(notes) + "\n\n" + body
        message = services.composer.compose(
            to=envelope.sender, subject=_reply_subject(envelope.subject),
            body=body, in_reply_to=envelope.message_id,
            references=_references(envelope), auto_submitted="auto-replied", date=now)
        queue(session, message, kind="orders-unchanged", dedupe_key=f"confirm:{row.id}", now=now, game_id=game.id)
    return "unchanged"


def _reply_subject(subject: str) -> str:
    subject = subject or "(no subject)"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def _references(envelope: Envelope) -> list[str]:
    value = envelope.message.get("References")
    return str(value).split() if value else []


def _player_abbreviations(session: Session, game: GameView, power: str) -> dict[str, str] | None:
    """004 I(1) ¶2: the player's own list, where the ruleset allows such lists."""
    if not game.ruleset.player_abbreviation_lists:
        return None
    return player_abbreviations(session, game.id, power) or None


def _game_views(session: Session, envelope: Envelope) -> list[GameView]:
    """The games this message could be about: those its subject may name (a word of the game's
    name appears in it; `decide` then reads the subject exactly) or, when it names none, the
    sender's own games, so that the refusal can say which subject would have worked."""
    subject_words = set(name_words(envelope.subject))
    # finished games too, so that a late player hears the game is over
    candidates = [game_id for game_id, name in open_game_names(session)
                  if subject_words & set(name_words(name))]
    if not candidates:
        candidates = games_of_address(session, envelope.sender)
    return [game_view(game) for game in open_games_with_players(session, candidates)]



def game_view(game: Game) -> GameView:
    return GameView(
        id=game.id, name=game.name, ruleset=ruleset_of(game), phase=game.phase,
        deadline=game.deadline, status=game.status,
        players={p.power: (p.address.lower(), p.fallback_address.lower() if p.fallback_address else None)
                 for p in game.players},
        secrets={p.power: p.secret for p in game.players},
    )
