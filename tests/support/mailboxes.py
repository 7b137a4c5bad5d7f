"""One game's people as real mailboxes in the test Dovecot: the GM's and seven players'."""

from __future__ import annotations

import email
import email.policy
import uuid

from imapclient import IMAPClient

from gmserver.config import ImapConfig
from gmserver.rules.subject import format_subject
from gmserver.services.game.games import POWERS
from tests.support.world import order_mail


class Table:
    """One game's people: a GM mailbox and seven players' mailboxes in the test Dovecot."""

    def __init__(self, dovecot) -> None:
        token = uuid.uuid4().hex[:8]
        self.dovecot = dovecot
        self.gm = f"gm-{token}@example.test"
        self.players = {power: f"{power.lower()}-{token}@example.test" for power in POWERS}
        for address in (self.gm, *self.players.values()):
            dovecot.add_user(address, "secret")

    def mail_orders(self, game: str, phase: str, orders: dict[str, str]) -> None:
        for power, body in orders.items():
            subject = format_subject(template="standard", game_name=game, power=power, phase=phase, purpose="orders")
            self.dovecot.append(self.gm, order_mail(self.players[power], subject, f"Hi GM,\n\n{body}\n\n-- \n{power}"))

    def mark_all_unseen(self) -> None:
        with IMAPClient(self.dovecot.host, self.dovecot.imap_port, ssl=False, timeout=10) as client:
            client.login(self.gm, "secret")
            client.select_folder("INBOX")
            client.remove_flags(client.search("ALL"), [b"\\Seen"])

    def inbox(self, power: str) -> list[email.message.EmailMessage]:
        return [email.message_from_bytes(raw, policy=email.policy.default)
                for _, _, raw in self.dovecot.messages(self.players[power])]

    def reports(self, power: str, phase: str) -> list[str]:
        return [" ".join(m.get_body(("plain",)).get_content().split()) for m in self.inbox(power)
                if "results" in str(m["Subject"]) and phase in str(m["Subject"])]


def imap_config(table: Table, dovecot) -> ImapConfig:
    return ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=table.gm, password="secret",
                      idle=True, poll_seconds=2)
