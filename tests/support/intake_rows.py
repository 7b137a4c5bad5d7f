"""Mail through intake on a real database, and what it left in the outbox: the three steps most
integration tests of mail kinds repeat (press, votes, requests)."""

from __future__ import annotations

import email
import email.policy
import smtplib
from datetime import datetime

from sqlalchemy import select

from gmserver.db.models import Game, InboundMessage, OutboxMessage, Player, Press
from gmserver.db.session import transaction
from gmserver.mail.listener import Listener
from gmserver.rules.authenticity import reply_address, reply_token
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import message_bytes
from tests.support.dovecot import free_port
from tests.support.world import GM, order_mail, player_address


def deliver(services: Services, raw: bytes, now: datetime) -> InboundMessage:
    """Store a message as the SMTP listener would, process it, and return its row (detached)."""
    row_id = intake.store(services.sessions, raw, source="smtp", now=now).id
    intake.process_one(services, row_id, now)
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, row_id)
        session.expunge(row)
        return row


def send_orders(services: Services, now: datetime, power: str, body: str, phase: str, *, game: str = "lepanto",
                template: str = "standard", sender: str | None = None) -> list[tuple[int, str]]:
    """The power's order mail for `phase` (the subject the `template` gives), from its player
    (or `sender`), stored and processed with whatever else was waiting: (row id, outcome) of each."""
    subject = format_subject(template=template, game_name=game, power=power, phase=phase, purpose="orders")
    intake.store(services.sessions, order_mail(sender or player_address(power), subject, body), source="smtp", now=now)
    return intake.process_pending(services, now)


def deliver_queued(services: Services, raw: bytes, now: datetime) -> tuple[InboundMessage, list[OutboxMessage]]:
    """`deliver`, and every mail queued while the message was processed (detached)."""
    before = max((row.id for row in outbox_rows(services)), default=0)
    row = deliver(services, raw, now)
    return row, [row for row in outbox_rows(services) if row.id > before]


def through_listener(services: Services, raw: bytes, now: datetime, *, sender: str,
                     recipients: list[str]) -> InboundMessage:
    """`deliver`, the whole way in: smtplib to the built-in SMTP listener on 127.0.0.1 (which keeps
    MAIL FROM and RCPT TO, as in production), then processed; the row (detached)."""
    stored: list[int] = []
    listener = Listener("127.0.0.1", free_port(), "smtp",
                        lambda data, envelope: stored.append(intake.store(
                            services.sessions, data, source="smtp", now=now, envelope_from=envelope.mail_from,
                            envelope_to=envelope.rcpt_tos).id),
                        accepted_recipients={services.composer.gm_address})
    listener.start()
    try:
        with smtplib.SMTP(listener.host, listener.port, timeout=10) as client:
            assert client.sendmail(sender, recipients, raw) == {}
    finally:
        listener.stop()
    [row_id] = stored
    intake.process_one(services, row_id, now)
    with transaction(services.sessions) as session:
        row = session.get(InboundMessage, row_id)
        session.expunge(row)
        return row


def gm_mail(services: Services, body: str, now: datetime, subject: str = "lepanto") -> tuple[InboundMessage, str]:
    """A mail from the GM's address, processed: its row (detached) and the words of the last
    notice the GM got back, on one line."""
    row = deliver(services, order_mail(GM, subject, body, date=now), now)
    [answer] = [m for m in outbox_rows(services, "notice") if m.recipient == GM][-1:]
    return row, " ".join(plain_text(answer).split())


def game_row(services: Services, game: str = "lepanto") -> Game:
    """The game's row (detached)."""
    with transaction(services.sessions) as session:
        row = session.scalar(select(Game).where(Game.name == game))
        session.expunge(row)
        return row


def without_headers(raw: bytes, *names: bytes) -> bytes:
    """`raw` without the header lines that start with these names (e.g. b"Message-ID:"), as a mail
    program that writes none of them sends it."""
    return b"".join(line for line in raw.splitlines(keepends=True) if not line.startswith(names))


def player_reply_address(services: Services, power: str, game: str = "lepanto", phase: str | None = None) -> str:
    """The power's own reply address (gm+TOKEN@...), which only the GM's mail gives out: in a mail
    sent now, or sent in `phase` (its token changes every turn)."""
    with transaction(services.sessions) as session:
        secret, current = session.execute(select(Player.secret, Game.phase).join(Game).where(
            Game.name == game, Player.power == power)).one()
    return reply_address(services.composer.gm_address, reply_token(secret, phase or current))


def outbox_rows(services: Services, kind: str | None = None) -> list[OutboxMessage]:
    """Every outgoing mail queued so far, oldest first (detached), or those of one kind."""
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
        for row in rows:
            session.expunge(row)
    return [row for row in rows if kind is None or row.kind == kind]


def plain_text(row: OutboxMessage) -> str:
    """The plain-text part of a queued mail (a turn report's copy written as the sender will), with
    Unix line ends."""
    body = email.message_from_bytes(message_bytes(row), policy=email.policy.default).get_body(("plain",))
    return body.get_content().replace("\r\n", "\n")


def press_rows(services: Services) -> list[tuple[str, str, str]]:
    """(author, kind, status) of every press item stored, oldest first."""
    with transaction(services.sessions) as session:
        return [(p.author, p.kind, p.status) for p in session.scalars(select(Press).order_by(Press.id))]


def france_confirmations(services: Services, clock, template: str, game: str,
                         sets: tuple[tuple[str, str], ...]) -> list[str]:
    """Each (marker, body) sent as France's Spring 1901 order mail, five minutes apart, the
    subject's marker after the `template`'s subject; the text of every confirmation, in order."""
    base = format_subject(template=template, game_name=game, power="FRANCE", phase="S1901M", purpose="orders")
    for marker, body in sets:
        intake.store(services.sessions, order_mail(player_address("FRANCE"), f"{base} {marker}", body),
                     source="smtp", now=clock())
        intake.process_pending(services, clock())
        clock.advance(minutes=5)
    with transaction(services.sessions) as session:
        rows = session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "confirmation")
                               .order_by(OutboxMessage.id))
        return [email.message_from_bytes(row.raw, policy=email.policy.default).get_body(("plain",)).get_content()
                for row in rows]
