"""A game played by mail in the test Dovecot: the GM's server inbox (where players mail), the GM's own
mailbox and the players' mailboxes, and the clock, services and SMTP transport around them. The
e2e tests drive each step by hand: mail in, `poll_once`, the deadline, the outbox."""

from __future__ import annotations

import email
import email.policy
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from email.utils import make_msgid

from sqlalchemy import select

from gmserver.config import Config, ImapConfig
from gmserver.daemon import imap_settings
from gmserver.db.models import Game, PhaseRecord, Player
from gmserver.db.session import transaction
from gmserver.engine import position_from_state
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base import outbox
from gmserver.services.turn import turns
from gmserver.services.base.context import Services
from gmserver.services.game.games import POWERS
from gmserver.services.inbox.polling import poll_once
from tests.support.clock import Clock
from tests.support.world import order_mail


class Table:
    """The GM's server inbox (where players mail), the GM's own mailbox and seven players'."""

    def __init__(self, dovecot) -> None:
        token = uuid.uuid4().hex[:8]
        self.dovecot = dovecot
        self.server = f"gm-{token}@example.test"
        self.gm = f"garry-{token}@example.test"
        self.players = {power: f"{power.lower()}-{token}@example.test" for power in POWERS}
        for address in (self.server, self.gm, *self.players.values()):
            dovecot.add_user(address, "secret")

    def send(self, sender: str, subject: str, body: str, date: datetime | None = None) -> str:
        """Mail the GM's server inbox; the message's Message-ID (to check that answers thread)."""
        message_id = make_msgid(domain="players.test")
        self.dovecot.append(self.server, order_mail(sender, subject, body, message_id=message_id, to=self.server,
                                                    date=date))
        return message_id

    def inbox(self, address: str) -> list[email.message.EmailMessage]:
        return [email.message_from_bytes(raw, policy=email.policy.default)
                for _, _, raw in self.dovecot.messages(address)]


@dataclass
class Run:
    """One game under way: the clock, the services and the mail around them."""

    table: Table
    services: Services
    clock: Clock
    transport: SmtpTransport
    imap: ImapConfig
    profile: str
    game: str
    game_id: int = 0

    def orders(self, phase: str, orders: dict[str, str]) -> None:
        template = load_ruleset(self.profile).subject_template
        for power, body in orders.items():
            subject = format_subject(template=template, game_name=self.game, power=power, phase=phase,
                                     purpose="orders")
            self.table.send(self.table.players[power], subject, body)

    def gm_mail(self, body: str) -> None:
        with transaction(self.services.sessions) as session:
            secret = session.get(Game, self.game_id).gm_secret
        # a GM command mail's Date must be near when it reached the GM: polling takes the earlier
        # of Dovecot's real arrival time and the test's clock
        sent = min(datetime.now(timezone.utc), self.clock())
        self.table.send(self.table.gm, self.game, f"{body}\n\nPassword: {secret}\n-- \nGarry", date=sent)

    def poll(self) -> None:
        with ImapMailbox(imap_settings(Config(imap=self.imap))) as mailbox:
            poll_once(self.services, mailbox, self.clock)
        outbox.deliver_due(self.services.sessions, self.transport, self.clock())

    def status(self) -> tuple[str, datetime | None, str]:
        """The game's phase, deadline and status."""
        with transaction(self.services.sessions) as session:
            game = session.get(Game, self.game_id)
            return game.phase, game.deadline, game.status

    def to_deadline(self) -> str:
        """Move the clock to the deadline, adjudicate, deliver; the phase that opens."""
        phase, deadline, _ = self.status()
        assert deadline is not None
        self.clock.now = deadline
        [done] = turns.adjudicate_due(self.services, self.clock())
        assert done.phase == phase
        outbox.deliver_due(self.services.sessions, self.transport, self.clock())
        self.clock.advance(minutes=5)
        return done.next_phase

    def units(self) -> dict[str, list[str]]:
        with transaction(self.services.sessions) as session:
            game = session.get(Game, self.game_id)
            state = session.scalar(select(PhaseRecord.state).where(PhaseRecord.game_id == game.id,
                                                                   PhaseRecord.phase == game.phase))
        return {p: sorted(u) for p, u in position_from_state(state).units.items() if u}

    def missed(self) -> dict[str, tuple[int, int, bool]]:
        """power -> (missed in a row, missed in all, in civil disorder), for the powers that missed."""
        with transaction(self.services.sessions) as session:
            return {p.power: (p.missed_in_a_row, p.missed_turns, p.civil_disorder)
                    for p in session.scalars(select(Player).where(Player.game_id == self.game_id))
                    if p.missed_turns or p.civil_disorder}
