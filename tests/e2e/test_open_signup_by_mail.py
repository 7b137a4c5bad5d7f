"""Open sign-up by mail, over a real Dovecot (IMAP in, LMTP for the players' inboxes) and a real
aiosmtpd relay: a game announced on the command line, nine players join with preferences and
confirm by replying to the answer (two too many: they wait, standing by), the powers assigned as
the method says (checked against a hand-worked table), start mails sent; Turkey's player resigns
by mail in Fall 1901; the players standing by are offered Turkey, the first in line takes it over
by replying TAKEOVER, gets the replacement's start mail and orders, and the game goes on; an
observer receives every report and no private mail."""

from __future__ import annotations

import email
import email.policy
import uuid
from datetime import UTC, datetime

import pytest

from gmserver.cli import main
from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import imap_settings
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.subject import format_subject
from gmserver.services.base import outbox
from gmserver.services.features.records import player_record_of
from gmserver.services.game.games import show_game
from gmserver.services.inbox.polling import poll_once
from gmserver.services.turn import turns
from tests.support.intake_rows import game_row
from tests.support.mailboxes import imap_config
from tests.support.world import order_mail, services_for

pytestmark = pytest.mark.e2e

# nine players' preferences, in the order they confirm. Worked by hand (docs/players.md's method):
# the first seven are seated; all first choices differ but P1's and P6's (France). Giving P1 France
# and P6 its second, Austria (nobody's first), grants six first choices and one second: (6, 1, ...);
# any other way grants fewer first choices, or as many and no second. One best assignment: no draw.
PREFERENCES = ["France, England", "England", "Germany, France", "Italy", "Russia, Turkey", "France, Austria",
               "Turkey, Russia", "any", "England"]
SEATED = ["FRANCE", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "AUSTRIA", "TURKEY"]
SPRING = {"AUSTRIA": "A Vie-Gal", "ENGLAND": "F Lon-NTH", "FRANCE": "A Par-Bur", "GERMANY": "A Mun-Ruh",
          "ITALY": "A Ven H", "RUSSIA": "A Mos-Ukr", "TURKEY": "A Con-Bul"}
FALL = {"AUSTRIA": "A Gal H", "ENGLAND": "F NTH-Nwy", "FRANCE": "A Bur-Bel", "GERMANY": "A Ruh-Hol",
        "ITALY": "A Ven H", "RUSSIA": "A Ukr H", "TURKEY": "A Bul H"}


class People:
    """The GM's mailbox and everyone else's in the test Dovecot."""

    def __init__(self, dovecot, count: int) -> None:
        token = uuid.uuid4().hex[:8]
        self.dovecot = dovecot
        self.gm = f"gm-{token}@example.test"
        self.players = [f"p{index + 1}-{token}@example.test" for index in range(count)]
        self.observer = f"watch-{token}@example.test"
        for address in (self.gm, *self.players, self.observer):
            dovecot.add_user(address, "secret")

    def inbox(self, address: str) -> list[email.message.EmailMessage]:
        return [email.message_from_bytes(raw, policy=email.policy.default)
                for _, _, raw in self.dovecot.messages(address)]

    def send(self, sender: str, subject: str, body: str, to: str | None = None) -> None:
        self.dovecot.append(self.gm, order_mail(sender, subject, body, to=to or self.gm))


def text_of(message: email.message.EmailMessage) -> str:
    return " ".join(message.get_body(("plain",)).get_content().split())


def reply_to(message: email.message.EmailMessage) -> str:
    return message["Reply-To"].addresses[0].addr_spec


def test_a_game_fills_itself_by_mail_and_a_standby_player_takes_over(database_url, dovecot, smtp_relay, clock,
                                                                     tmp_path) -> None:
    people = People(dovecot, 9)
    clock.now = datetime.now(UTC)
    services = services_for(database_url, gm_address=people.gm)
    transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))
    config_file = tmp_path / "gm.toml"
    config_file.write_text(f'[database]\nurl = "{database_url}"\n[gm]\naddress = "{people.gm}"\n')
    assert main(["--config", str(config_file), "game", "announce", "lepanto", "--ruleset", "standard"]) == 0
    mailbox_config = Config(imap=imap_config(people, dovecot))  # it reads the GM mailbox of any table

    def poll_and_send() -> int:
        clock.advance(minutes=1)
        with ImapMailbox(imap_settings(mailbox_config)) as mailbox:
            poll_once(services, mailbox, clock)
        return outbox.deliver_due(services.sessions, transport, clock()).sent

    # nine join, and an observer asks to observe
    for address, preferences in zip(people.players, PREFERENCES, strict=True):
        people.send(address, "lepanto", f"join lepanto {preferences}")
    people.send(people.observer, "lepanto", "observe lepanto")
    assert poll_and_send() == 10
    answers = {address: people.inbox(address)[-1] for address in (*people.players, people.observer)}
    for answer in answers.values():
        assert reply_to(answer).startswith(people.gm.split("@")[0] + "+")  # their own address at the GM
        assert "Reply to this mail to confirm" in text_of(answer)
    # each replies to the answer (any words), in the queue's order; the observer first
    people.send(people.observer, "Re: lepanto", "ok", to=reply_to(answers[people.observer]))
    for address in people.players:
        people.send(address, "Re: lepanto", "Yes, count me in.", to=reply_to(answers[address]))
    poll_and_send()

    summary = show_game(services.sessions, "lepanto", people.gm)
    assert {power: p["address"] for power, p in summary["players"].items()} == dict(
        zip(SEATED, people.players[:7], strict=True))
    assert summary["assignment"]["score"][:2] == [6, 1] and summary["assignment"]["best_count"] == 1
    assert summary["standby"] == people.players[7:] and summary["observers"] == [people.observer]
    for power, address in zip(SEATED, people.players[:7], strict=True):
        assert f"lepanto: you play {power.title()}" in [str(m["Subject"]) for m in people.inbox(address)]
    for address in people.players[7:]:
        assert "full before your reply: you stand by" in text_of(people.inbox(address)[-1])

    game_id = game_row(services).id

    def order_and_adjudicate(phase: str, orders: dict[str, str]) -> None:
        players = show_game(services.sessions, "lepanto", people.gm)["players"]
        for power, body in orders.items():
            subject = format_subject(template="standard", game_name="lepanto", power=power, phase=phase,
                                     purpose="orders")
            people.send(players[power]["address"], subject, f"{body}\nPassword: {players[power]['password']}")
        poll_and_send()
        clock.advance(hours=1)
        turns.adjudicate(services, game_id, clock(), force=True)
        poll_and_send()

    order_and_adjudicate("S1901M", SPRING)
    # Fall 1901: Turkey's player resigns, replying to their start mail; the players standing by are
    # offered Turkey, and the first to reply TAKEOVER gets it
    turkey = people.players[SEATED.index("TURKEY")]
    [start] = [m for m in people.inbox(turkey) if str(m["Subject"]) == "lepanto: you play Turkey"]
    people.send(turkey, "Re: lepanto: you play Turkey", "resign\n\nSorry, I have to stop.", to=reply_to(start))
    poll_and_send()
    assert "You have resigned from lepanto" in text_of(people.inbox(turkey)[-1])
    assert show_game(services.sessions, "lepanto")["players"]["TURKEY"]["resigned"]
    offers = {address: [m for m in people.inbox(address) if "needs a new player" in str(m["Subject"])]
              for address in people.players[7:]}
    assert {address: len(found) for address, found in offers.items()} == {a: 1 for a in people.players[7:]}
    first = people.players[7]
    people.send(first, "Re: lepanto", "TAKEOVER", to=reply_to(offers[first][0]))
    poll_and_send()
    people.send(people.players[8], "Re: lepanto", "takeover!", to=reply_to(offers[people.players[8]][0]))
    poll_and_send()
    assert show_game(services.sessions, "lepanto")["players"]["TURKEY"]["address"] == first
    assert any("You take over Turkey in lepanto" in text_of(m) for m in people.inbox(first))
    assert "lepanto: you play Turkey" in [str(m["Subject"]) for m in people.inbox(first)]  # the start mail
    assert "No power of lepanto is offered to you now" in text_of(people.inbox(people.players[8])[-1])
    # both records on this server say so (the GM's `player show`)
    assert player_record_of(services, turkey).resignations == 1
    assert player_record_of(services, first).takeovers == 1
    # the new player orders for Turkey in Fall 1901 with the other six
    order_and_adjudicate("F1901M", FALL)
    fall = [m for m in people.inbox(first) if "F1901M" in str(m["Subject"]) and "results" in str(m["Subject"])]
    assert fall and "A BUL H" in text_of(fall[0]).upper()

    # the game goes on: the Winter adjustments, with Turkey's new player in the report's list
    clock.advance(hours=1)
    assert turns.adjudicate(services, game_id, clock(), force=True).phase == "W1901A"
    poll_and_send()
    assert [m for m in people.inbox(first) if "W1901A" in str(m["Subject"]) and "results" in str(m["Subject"])]

    # the observer: every report, and nothing private (no start mail, no confirmation, no offer)
    seen = people.inbox(people.observer)
    reports = [str(m["Subject"]) for m in seen if "results" in str(m["Subject"])]
    assert len(reports) == 3 and all(phase in " ".join(reports) for phase in ("S1901M", "F1901M", "W1901A"))
    assert len(seen) == 2 + 3  # the answer and its confirmation, then the three reports
    assert not any("Password" in text_of(m) or "needs a new player" in str(m["Subject"]) for m in seen)
