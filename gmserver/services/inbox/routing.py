"""One stored message read and answered, inside the transaction that marks it done
(services.inbox.runner.process_one): which games it may be about, what kind of mail it is, whether it
is refused (and whether the refusal may be sent), and which handler carries it out."""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from gmserver.commands.players import help_list
from gmserver.commands.registry import MAIL_WORDS, OPEN_COMMANDS, PLAYER_SUBJECT_WORDS, PLAYER_WORDS
from gmserver.db.models import InboundMessage
from gmserver.db.queries.games import open_games_named_by, open_games_with_players
from gmserver.db.queries.outbox import queued_since
from gmserver.db.queries.players import games_of_address, plays_in_an_active_game
from gmserver.db.session import transaction
from gmserver.rules.authenticity import address_secret
from gmserver.rules.automated import automated_reason, transport_reason
from gmserver.rules.envelope import Envelope, envelope_of, glance_envelope, parse_message
from gmserver.rules.intake import Accept, GameView, Hold, Ignore, Reject, decide, names_game, players_reply_tokens
from gmserver.rules.limits import Excess, first_excess
from gmserver.rules.mailkind import ORDER_KINDS, PRESS_KINDS, MailKind, classify, has_order_lines
from gmserver.rules.press import NON_PLAYER
from gmserver.rules.reading.message import MessageText, read_message, split_message
from gmserver.rules.safetext import safe_text
from gmserver.rules.subject import name_words
from gmserver.services.base import mails
from gmserver.services.base.context import Services
from gmserver.services.base.gm_mail import copy_to_gm
from gmserver.services.base.outbox import queue
from gmserver.services.base.reply_limits import (
    PLAYER_REFUSALS_PER_HOUR,
    PROVEN_REFUSAL_KEY,
    REFUSAL_KINDS,
    STRANGER_KINDS,
    STRANGER_NOTICE_KIND,
    STRANGER_REFUSALS_PER_HOUR,
    STRANGER_REPLY_INTERVAL,
    player_refusals_since,
)
from gmserver.services.base.reply_limits import (
    replies_since as _replies_since,
)
from gmserver.services.base.reply_tokens import tokens_of_address
from gmserver.services.commands import address_changes
from gmserver.services.features import held
from gmserver.services.features.press import replies_to_press
from gmserver.services.features.senders import check_sender
from gmserver.services.game.games import game_view
from gmserver.services.inbox import handlers
from gmserver.services.inbox.handlers import absence_offer, requests, signup
from gmserver.services.inbox.handlers import players as players_handler
from gmserver.services.inbox.handlers import press as press_handler
from gmserver.services.inbox.handlers.mail import Mail
from gmserver.services.inbox.handlers.notice import common_context

log = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class Prepared:
    """What intake reads of a message before its transaction opens: parsing and converting text
    takes CPU that grows with the message (under gmserver.rules.limits and the reading bounds of
    gmserver.rules.reading.message), and on SQLite a transaction holds the database's write lock
    from its first statement, so none of it may happen inside one."""

    excess: Excess | None  # the bound the message exceeds: then it is never parsed
    envelope: Envelope | None
    text: MessageText | None


def prepare(raw: bytes) -> Prepared:
    """Pure: `raw` measured, parsed and its text read."""
    if (excess := first_excess(raw)) is not None:
        return Prepared(excess, None, None)
    message = parse_message(raw)  # parsed once, for the envelope and the text
    return Prepared(None, envelope_of(raw, message), read_message(raw, message))


def handle(session: Session, services: Services, row: InboundMessage, now: datetime,
           prepared: Prepared | None = None) -> str:
    """Carry out the message in `row`, read beforehand as `prepared` (read here if None)."""
    if prepared is None:
        prepared = prepare(row.raw)
    if prepared.excess is not None:
        return _refuse_unreadable(session, services, row, prepared.excess, now)
    assert prepared.envelope is not None and prepared.text is not None
    envelope = _with_transport_facts(prepared.envelope, row, services.composer.domain,
                                     services.composer.gm_address)
    games = _game_views(session, envelope)
    order_text, press_text = prepared.text.orders, prepared.text.press
    from_gm = not envelope.automated and envelope.sender in gm_addresses(services)
    kind = classify(subject=envelope.subject, order_text=order_text, press_text=press_text,
                    game_names=[game.name for game in games], from_gm=from_gm, gm_commands=MAIL_WORDS,
                    player_commands=PLAYER_WORDS, subject_commands=PLAYER_SUBJECT_WORDS)
    if from_gm:
        # the GM plays no power: their mail is a command, never orders (nor a stranger's mail)
        named = [game for game in games if names_game(envelope.subject, game)]
        row.kind = kind.kind
        outcome = handlers.handle(Mail(session, services, row, envelope, kind, now, decision=None,
                                       order_text=order_text, press_text=press_text,
                                       named_game=named[0] if len(named) == 1 else None))
        # set after the handler: the foreign key's share lock on the game row, taken first, would
        # deadlock against a command locking that row for update (see the note below)
        row.game_id = named[0].id if len(named) == 1 else None
        return outcome
    # a reply to an address change's one-time address (services.commands.address_changes): the new address
    # confirming, or the old one cancelling; the new address plays no power yet
    # the one-time addresses (an address change's, an absence offer's, a sign-up's) are looked up
    # only for secrets that are no player's reply token here: a reply to the GM's mail, the usual
    # proof of an order mail's sender, costs none of those three look-ups
    players_tokens = players_reply_tokens(games)
    tokens = tuple(secret for secret in _reply_secrets(row, envelope, services.composer.gm_address)
                   if secret.lower() not in players_tokens)
    if tokens and (
            outcome := address_changes.answer(session, services, envelope, order_text, tokens, now)) is not None:
        row.kind = "request"
        return outcome
    # a reply YES to the offer made to an out-of-office reply (handlers.absence_offer)
    if tokens and (outcome := absence_offer.answer(Mail(session, services, row, envelope, kind, now, None, order_text,
                                                        press_text), tokens)) is not None:
        return outcome
    if kind.kind == "orders" and replies_to_press(session, envelope):
        kind = MailKind("press")  # a reply to a press mail is press, never an order set (its subject names a turn)
    # open sign-up: a reply confirming a request (or taking over a power offered), and the commands
    # anyone may send (JOIN, STANDBY, OBSERVE...): the sender need play no power
    if tokens and (outcome := signup.confirm(Mail(session, services, row, envelope, kind, now, None, order_text,
                                                  press_text), tokens)) is not None:
        row.kind = "request"
        return outcome
    if kind.kind == "request" and kind.topic in OPEN_COMMANDS:
        row.kind = kind.kind
        return signup.handle(Mail(session, services, row, envelope, kind, now, None, order_text, press_text))
    if kind.kind == "request" and (mine := requests.games_to_name(
            envelope, games, _reply_secrets(row, envelope, services.composer.gm_address))):
        row.kind = kind.kind  # a player in two games asking without naming one
        return requests.which_game(Mail(session, services, row, envelope, kind, now, None, order_text, press_text),
                                   mine)
    # deadlines are judged by when the message reached the GM, not by when it is processed
    decision = decide(envelope, games, row.received_at, orders=kind.kind in ORDER_KINDS,
                      press=kind.kind in PRESS_KINDS,
                      read_only=kind.kind == "request" and kind.topic in requests.READ_ONLY,
                      after_end=kind.topic == "draw_complaint",  # 002 DRAWS 5: after the draw ended the game
                      body=order_text, gm_address=services.composer.gm_address,
                      reply_secrets=_reply_secrets(row, envelope, services.composer.gm_address),
                      trusted_receivers=services.sender_checks.trusted_receivers)
    if isinstance(decision, Ignore):
        if envelope.automated and (outcome := _offer_absence(session, services, row, envelope, games, kind,
                                                             order_text, now)) is not None:
            return outcome
        log.info("inbound %s from %s ignored: %s", row.id, envelope.sender or "?", decision.reason)
        return "ignored"
    if isinstance(decision, Reject):
        if _asks_nothing(row, envelope, kind, games, order_text, services.composer.gm_address):
            return _help_instead(session, services, row, envelope, decision, kind, now)
        return _refuse(session, services, row, envelope, decision, now)
    if isinstance(decision, Hold):
        # hold_for_gm (001 II(4)): the sender is checked as for any order set first
        if (unverified := check_sender(session, services, row, envelope, decision.accept, now,
                                       body=prepared.text.body)) is not None:
            return unverified
        row.kind = kind.kind
        return held.hold(session, services, row, envelope, decision, now)
    if decision.power == NON_PLAYER:
        # 002 PRESS 2 (press_from_non_players): press from someone who plays no power here claims
        # no power, so there is no player's address to verify; only the press is used
        row.kind, row.game_id, row.power = kind.kind, decision.game.id, decision.power
        return press_handler.handle_non_player(Mail(session, services, row, envelope, kind, now, decision, order_text,
                                                    press_text))
    # in a "verified" game the From address alone does not make a message the power's
    if (unverified := check_sender(session, services, row, envelope, decision, now, body=prepared.text.body)) is not None:
        return unverified
    row.kind = kind.kind
    if kind.kind not in ORDER_KINDS:
        # Not for orders: _accept sets these only after it holds the game row, since writing
        # the foreign key first takes a share lock on that row, and two workers each holding one
        # while asking for the game row's update lock deadlock (PostgreSQL).
        row.game_id, row.power = decision.game.id, decision.power
    return handlers.handle(Mail(session, services, row, envelope, kind, now, decision=decision,
                                order_text=order_text, press_text=press_text, unread=prepared.text.unread,
                                text=prepared.text))


def _offer_absence(session: Session, services: Services, row: InboundMessage, envelope: Envelope,
                   games: list[GameView], kind: MailKind, order_text: str, now: datetime) -> str | None:
    """An automated message from a player of one game: where it is an out-of-office reply naming
    its dates, the offer to register that absence (handlers.absence_offer); None otherwise."""
    whose = decide(dataclasses.replace(envelope, automated=False), games, row.received_at, orders=False,
                   body=order_text, gm_address=services.composer.gm_address,
                   reply_secrets=_reply_secrets(row, envelope, services.composer.gm_address))
    if not isinstance(whose, Accept) or whose.by_proxy or whose.power == NON_PLAYER:
        return None
    return absence_offer.offer(Mail(session, services, row, envelope, kind, now, whose, order_text))


def _refuse(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Reject,
            now: datetime) -> str:
    """The refusal, under the limits of services.base.reply_limits, and the GM's copy (gm_copies)."""
    if decision.game is not None:
        row.game_id, row.power = decision.game.id, decision.power
    proven = not decision.stranger and _proves_sender(session, row, envelope, services.composer.gm_address)
    if not _may_refuse(session, row, envelope, decision, now, proven=proven):
        return "ignored"
    log.info("inbound %s from %s rejected: %s", row.id, envelope.sender, " ".join(decision.reasons))
    refusal = mails.rejection(services, envelope, decision, now)
    queue(session, refusal, kind="stranger-refusal" if decision.stranger else "rejection",
          dedupe_key=f"{PROVEN_REFUSAL_KEY}{row.id}" if proven else f"reject:{row.id}", now=now,
          game_id=decision.game.id if decision.game else None)
    if decision.game is not None:  # the game's gm_copies setting
        copy_to_gm(session, services, decision.game.id, refusal, "refusal", f"reject:{row.id}", now)
    return "rejected"


def _asks_nothing(row: InboundMessage, envelope: Envelope, kind: MailKind, games: list[GameView], order_text: str,
                  gm_address: str) -> bool:
    """A mail that names no game (subject or reply address) and asks for nothing (no command, no
    line written as an order), or asks for HELP: HELP answers it instead of a refusal."""
    nothing_asked = kind.kind == "orders" and not has_order_lines(order_text)
    return ((nothing_asked or _asks_help(kind)) and not any(names_game(envelope.subject, game) for game in games)
            and not _reply_secrets(row, envelope, gm_address))


def _asks_help(kind: MailKind) -> bool:
    return kind.kind == "request" and kind.topic == help_list.COMMAND.name


def _help_instead(session: Session, services: Services, row: InboundMessage, envelope: Envelope, decision: Reject,
                  kind: MailKind, now: datetime) -> str:
    """HELP for the one game the player plays (its commands, the subject line, how to reply),
    under the limits of a refusal and counted as one; a stranger, or a player of several games,
    gets the refusal, which says what the subject must name."""
    if decision.stranger or decision.game is None or decision.power is None:
        return _refuse(session, services, row, envelope, decision, now)
    row.game_id, row.power = decision.game.id, decision.power
    if not _may_refuse(session, row, envelope, decision, now, proven=False):
        return "ignored"
    answer = players_handler.help_answer(session, decision.game, decision.power, why="" if _asks_help(kind) else (
        "Your message named no game and no command, so nothing in it was used."))
    mail = Mail(session, services, row, envelope, kind, now, None, named_game=decision.game)
    body = services.composer.render(answer.template, {**common_context(mail), "title": answer.title,
                                                      "sections": answer.sections})
    queue(session, mails.notice(services, envelope, decision, body, now), kind="rejection",
          dedupe_key=f"reject:{row.id}", now=now, game_id=decision.game.id)
    return "help-sent"


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
        envelope = _with_transport_facts(envelope, row, services.composer.domain, services.composer.gm_address)
    except Exception:  # noqa: BLE001  headers too hostile to judge: never answer them
        return "ignored"
    if envelope.automated or not envelope.sender:
        return "ignored"
    decision = Reject((
        f"{excess.describe()}, so it was not read at all.",
        "Please reply to this mail with your orders written in it as plain text, without attachments "
        "and without the text of other mail quoted or forwarded.",
    ), stranger=not plays_in_an_active_game(session, envelope.sender))
    proven = not decision.stranger and _proves_sender(session, row, envelope, services.composer.gm_address)
    if not _may_refuse(session, row, envelope, decision, now, proven=proven):
        return "ignored"
    queue(session, mails.rejection(services, envelope, decision, now),
          kind="stranger-refusal" if decision.stranger else "rejection",
          dedupe_key=f"{PROVEN_REFUSAL_KEY}{row.id}" if proven else f"reject:{row.id}", now=now)
    return "refused"


def _with_transport_facts(envelope: Envelope, row: InboundMessage, own_domain: str, gm_address: str) -> Envelope:
    """What the headers alone cannot show: the SMTP envelope sender the listener kept ("" for a
    bounce) and whether an auto-reply answers one of gmserver's own Message-IDs or was sent to a
    player's reply address (RCPT TO or To: gm+SECRET@..., which only the GM's mail gives out)."""
    to_reply_address = bool(_reply_secrets(row, envelope, gm_address))
    if envelope.automated and not to_reply_address:
        return envelope
    # an envelope not automated had its headers checked without these facts (parse_envelope):
    # only the checks the facts change are made again
    judge = automated_reason if envelope.automated else transport_reason
    try:
        reason = judge(envelope.message, envelope_from=row.envelope_from, own_domain=own_domain,
                       to_reply_address=to_reply_address)
    except Exception:  # noqa: BLE001  headers too hostile to classify: never answered (as parse_envelope)
        reason = "headers that cannot be classified"
    if reason is None:
        # to a reply address, headers a person's mail carries too mark nothing (rules.automated)
        return dataclasses.replace(envelope, automated=False) if envelope.automated else envelope
    log.info("inbound %s from %s is automated: %s", row.id, envelope.sender or "?", reason)
    return dataclasses.replace(envelope, automated=True)


def _reply_secrets(row: InboundMessage, envelope: Envelope, gm_address: str) -> tuple[str, ...]:
    """The secrets of the players' reply addresses (gm+SECRET@...) among the message's recipients
    (RCPT TO, as the listener kept it, and the To header)."""
    found = (address_secret(str(address), gm_address) for address in (*(row.envelope_to or ()), *envelope.to))
    return tuple(secret for secret in found if secret)


def _proves_sender(session: Session, row: InboundMessage, envelope: Envelope, gm_address: str) -> bool:
    """Whether the message went to a reply address still accepted (gm+TOKEN@..., of this turn or
    the last) of a player whose address sent it: only that player, who got the address in the
    GM's mail, can have written it."""
    secrets = set(_reply_secrets(row, envelope, gm_address))
    return bool(secrets) and bool(secrets & tokens_of_address(session, envelope.sender))


def _may_refuse(session: Session, row: InboundMessage, envelope: Envelope, decision: Reject, now: datetime, *,
                proven: bool) -> bool:
    """Whether the refusal may be sent under the limits of services.base.reply_limits; logs why not.
    `proven`: the message proved its sender, whose refusals are counted apart from those of
    unproven mail in the player's name (a forger cannot spend them)."""
    hour_ago = now - timedelta(hours=1)
    if not decision.stranger:
        if player_refusals_since(session, envelope.sender, hour_ago, proven=proven) < PLAYER_REFUSALS_PER_HOUR:
            return True
        log.warning("inbound %s from %s refused without a reply: %d refusals of %s mail already sent to it since %s",
                    row.id, envelope.sender, PLAYER_REFUSALS_PER_HOUR, "proven" if proven else "unproven",
                    hour_ago.isoformat(timespec="minutes"))
        return False
    since = now - STRANGER_REPLY_INTERVAL
    if _replies_since(session, envelope.sender, (*REFUSAL_KINDS, STRANGER_NOTICE_KIND), since) >= 1:
        log.warning("inbound %s from %s refused without a reply: it was answered once since %s",
                    row.id, envelope.sender, since.isoformat(timespec="minutes"))
        return False
    sent = queued_since(session, hour_ago, kinds=STRANGER_KINDS)
    if sent >= STRANGER_REFUSALS_PER_HOUR:
        log.warning("inbound %s from %s refused without a reply: %d refusals already sent to strangers since %s",
                    row.id, envelope.sender, sent, hour_ago.isoformat(timespec="minutes"))
        return False
    return True


def _game_views(session: Session, envelope: Envelope) -> list[GameView]:
    """The games this message could be about: those its subject may name (a word of the game's
    name appears in it; `decide` then reads the subject exactly) or, when it names none, the
    sender's own games, so that the refusal can say which subject would have worked."""
    # finished games too, so that a late player hears the game is over
    games = open_games_named_by(session, name_words(envelope.subject))
    if not games:
        games = open_games_with_players(session, games_of_address(session, envelope.sender))
    return [game_view(game, session) for game in games]
