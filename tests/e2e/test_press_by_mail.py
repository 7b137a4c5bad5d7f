"""Press by mail over a real Dovecot (IMAP in, LMTP for the players' inboxes) and a real aiosmtpd
relay, on SQLite and PostgreSQL: players exchange white, grey and partial press, and each
player's inbox is checked for what they must see and what they must not (003 [9]
"Authorship of gray press will not be disclosed")."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import imap_settings
from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.subject import format_subject
from gmserver.services.base import outbox
from gmserver.services.turn import turns
from gmserver.services.game.games import POWERS
from gmserver.services.inbox.polling import poll_once
from tests.support.mailboxes import Table, imap_config
from tests.support.world import new_game, order_mail, services_for

pytestmark = pytest.mark.e2e


def flat(message) -> str:
    return " ".join(message.get_body(preferencelist=("plain",)).get_content().split())


def test_white_grey_and_partial_press_reach_exactly_their_readers(database_url, dovecot, smtp_relay, clock) -> None:
    table = Table(dovecot)
    clock.now = datetime.now(timezone.utc)
    services = services_for(database_url, gm_address=table.gm)
    game_id = new_game(services, clock(), name="lepanto")  # standard: white and grey press
    with transaction(services.sessions) as session:
        for player in session.get(Game, game_id).players:
            player.address, player.fallback_address = table.players[player.power], None
    england = format_subject(template="standard", game_name="lepanto", power="ENGLAND", phase="S1901M",
                             purpose="orders")
    mails = [
        (table.players["ENGLAND"], england, "F LON - NTH\n\nPRESS\nEngland wants peace with all.\nEND PRESS"),
        (table.players["GERMANY"], "lepanto", "GREY PRESS TO France\nBeware of the Kaiser.\nEND PRESS"),
        (table.players["FRANCE"], "lepanto", "PRESS TO Italy\nLet us split Austria.\nEND PRESS"),
    ]
    for sender, subject, body in mails:
        dovecot.append(table.gm, order_mail(sender, subject, body))
    with ImapMailbox(imap_settings(Config(imap=imap_config(table, dovecot)))) as mailbox:
        assert poll_once(services, mailbox, clock).processed == 3
    transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))
    # three answers (a confirmation and two notices) and two partial press mails
    assert outbox.deliver_due(services.sessions, transport, clock()).sent == 5

    france = [flat(m) for m in table.inbox("FRANCE") if "press" in str(m["Subject"])]
    assert len(france) == 1 and "Anonymous press" in france[0] and "Beware of the Kaiser." in france[0]
    for message in table.inbox("FRANCE"):  # grey press: its author nowhere, headers included
        assert "germany" not in message.as_string().lower()
    italy = [flat(m) for m in table.inbox("ITALY") if "press" in str(m["Subject"])]
    assert len(italy) == 1 and "Press from France" in italy[0] and "Let us split Austria." in italy[0]
    for power in ("AUSTRIA", "ENGLAND", "GERMANY", "RUSSIA", "TURKEY"):
        seen = " ".join(flat(m) for m in table.inbox(power))
        assert "Kaiser" not in seen and "split Austria" not in seen, power
    assert "sent anonymously to France: your name was not shown." in flat(table.inbox("GERMANY")[0])
    assert any("White press sent signed France to Italy." in flat(m) for m in table.inbox("FRANCE"))

    turns.adjudicate(services, game_id, clock(), force=True)
    assert outbox.deliver_due(services.sessions, transport, clock()).sent == 7
    for power in POWERS:
        [report] = [flat(m) for m in table.inbox(power)
                    if "results" in str(m["Subject"]) and "S1901M" in str(m["Subject"])]
        assert "England wants peace with all." in report, power  # broadcast press, with the report
        assert "Kaiser" not in report and "split Austria" not in report, power  # partial press is private
