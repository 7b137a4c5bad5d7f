"""An anonymous (gunboat) game played by mail over a real Dovecot (IMAP in, LMTP for the players'
inboxes) and a real aiosmtpd relay, on SQLite and PostgreSQL: two game turns with white, grey
and partial press, a player replaced on the way, every player writing with their name in From and
in their signature, and a player asking for the roster (LIST) and the game's SUMMARY. Then every mail every player received is read whole (each header decoded,
each MIME part decoded, the map and the calendar included) for any other player's address or
name. Only after the end, and only because the GM chooses (`reveal`), are the players named."""

from __future__ import annotations

import email
import email.header
import email.message
import email.policy
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import imap_settings
from gmserver.mail.imap import ImapMailbox
from gmserver.mail.outbound import SmtpTransport
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from gmserver.services.base import outbox
from gmserver.services.base.context import Services
from gmserver.services.commands import gm_controls
from gmserver.services.game.games import POWERS, GameError, GameSpec, PlayerSpec, open_game
from gmserver.services.inbox.polling import poll_once
from gmserver.services.turn import turns
from tests.support.mailboxes import Table, imap_config
from tests.support.world import order_mail, services_for

pytestmark = pytest.mark.e2e

NAMES = {"AUSTRIA": "Annegret Vogelsang", "ENGLAND": "Bartholomew Quill", "FRANCE": "Colette Marchetti",
         "GERMANY": "Dietrich Hollowell", "ITALY": "Ermenegilda Rossi", "RUSSIA": "Fyodora Zhukovskaya",
         "TURKEY": "Gokhan Yildirimoglu"}
NEW_TURKEY = "Halvard Brennstein"
# S1901M and F1901M: each power's orders, and the press some of them send with them
ORDERS = {
    "S1901M": {"AUSTRIA": "A VIE - GAL\nA BUD - SER\nF TRI - ALB", "ENGLAND": "F LON - NTH\nF EDI - NWG\nA LVP - YOR",
               "FRANCE": "A PAR - BUR\nA MAR - SPA\nF BRE - MAO", "GERMANY": "A BER - KIE\nA MUN - RUH\nF KIE - DEN",
               "ITALY": "A VEN - PIE\nA ROM - VEN\nF NAP - ION", "RUSSIA": "A MOS - UKR\nA WAR - GAL\nF SEV - BLA",
               "TURKEY": "A CON - BUL\nA SMY - CON\nF ANK - BLA"},
    "F1901M": {"AUSTRIA": "A SER H\nA GAL H\nF ALB - GRE", "ENGLAND": "F NTH - NWY\nA YOR - LON",
               "FRANCE": "A SPA - POR\nA BUR - MAR\nF MAO - SPA/NC", "GERMANY": "A KIE - HOL\nF DEN H\nA RUH - BEL",
               "ITALY": "F ION - TUN\nA VEN H\nA PIE H", "RUSSIA": "A UKR - RUM\nF SEV H",
               "TURKEY": "A BUL - GRE\nF ANK H\nA CON H"},
}
PRESS = {
    "S1901M": {"ENGLAND": "PRESS\nEngland wants peace with all.\nEND PRESS",
               "GERMANY": "GREY PRESS TO France\nBeware of the Kaiser.\nEND PRESS",
               "FRANCE": "PRESS TO Italy\nLet us split Austria.\nEND PRESS"},
    "F1901M": {"ITALY": "PRESS TO France\nAgreed, and keep out of Piedmont.\nEND PRESS",
               "TURKEY": "PRESS\nThe new Sultan greets everyone.\nEND PRESS",
               # no END PRESS: the press runs on to the mail's signature, which must not be relayed
               "RUSSIA": "GREY PRESS\nSomeone is lying to you all."},
}


def everything_in(message: email.message.EmailMessage) -> str:
    """A mail as a reader can see it: every header decoded (encoded words too) and every MIME
    part's decoded content (text, HTML, the calendar, the map's bytes), lower-cased."""
    seen = []
    for part in message.walk():
        for name, value in part.raw_items():
            decoded = "".join(text.decode(charset or "utf-8", "replace") if isinstance(text, bytes) else text
                              for text, charset in email.header.decode_header(str(value)))
            seen.append(f"{name}: {decoded} {value}")
        if not part.is_multipart():
            payload = part.get_payload(decode=True) or b""
            seen.append(payload.decode(part.get_content_charset() or "utf-8", "replace"))
    return "\n".join(seen).lower()


def flat(message: email.message.EmailMessage) -> str:
    return " ".join(message.get_body(preferencelist=("plain",)).get_content().split())


def send_all(services: Services, table: Table, dovecot, clock, phase: str) -> None:
    for power, orders in ORDERS[phase].items():
        subject = format_subject(template="standard", game_name="gunboat", power=power, phase=phase, purpose="orders")
        press = PRESS[phase].get(power, "")
        body = f"{orders}\n\n{press}\n\n-- \n{NAMES[power]}\nsent from my phone"
        dovecot.append(table.gm, order_mail(f"{NAMES[power]} <{table.players[power]}>", subject, body))
    with ImapMailbox(imap_settings(Config(imap=imap_config(table, dovecot)))) as mailbox:
        assert poll_once(services, mailbox, clock).processed == len(ORDERS[phase])


def deliver_everything(services: Services, transport: SmtpTransport, now: datetime) -> int:
    sent = 0
    while (report := outbox.deliver_due(services.sessions, transport, now)).sent:
        sent += report.sent
    return sent


def test_no_player_of_an_anonymous_game_sees_another_players_address_or_name_in_any_mail(
        database_url, dovecot, smtp_relay, clock) -> None:
    table = Table(dovecot)
    old_turkey = table.players["TURKEY"]
    new_turkey = f"sultan-{uuid.uuid4().hex[:8]}@example.test"
    dovecot.add_user(new_turkey, "secret")
    clock.now = datetime.now(UTC)
    services = services_for(database_url, gm_address=table.gm)
    transport = SmtpTransport(SmtpRelayConfig(host=smtp_relay.host, port=smtp_relay.port))
    game_id, _ = open_game(services.sessions, GameSpec(
        name="gunboat", ruleset=load_ruleset("standard"), anonymous=True, sender_check="from",
        players=[PlayerSpec(power, table.players[power]) for power in POWERS],
        movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
        enforce_minimums=False), clock(), services=services)
    assert deliver_everything(services, transport, clock()) == 7  # the start mails

    send_all(services, table, dovecot, clock, "S1901M")
    deliver_everything(services, transport, clock())
    # before the results: an anonymous game cannot be revealed while it is played
    with pytest.raises(GameError, match="still being played"):
        gm_controls.act(services, "gunboat", gm_controls.reveal, now=clock())
    turns.adjudicate(services, game_id, clock(), force=True)
    gm_controls.act(services, "gunboat", gm_controls.replace, "TURKEY", new_turkey, now=clock())
    deliver_everything(services, transport, clock())
    table.players["TURKEY"] = new_turkey
    NAMES["TURKEY"], old_name = NEW_TURKEY, NAMES["TURKEY"]
    try:
        send_all(services, table, dovecot, clock, "F1901M")
        deliver_everything(services, transport, clock())
        turns.adjudicate(services, game_id, clock(), force=True)
        deliver_everything(services, transport, clock())
    finally:
        NAMES["TURKEY"] = old_name
    # the player commands that speak of the other players: the roster and the whole game's summary
    for command in ("list", "summary"):
        dovecot.append(table.gm, order_mail(f"{NAMES['FRANCE']} <{table.players['FRANCE']}>", "gunboat", command))
    with ImapMailbox(imap_settings(Config(imap=imap_config(table, dovecot)))) as mailbox:
        assert poll_once(services, mailbox, clock).processed == 2
    deliver_everything(services, transport, clock())

    people = {**{power: (table.players[power], NAMES[power]) for power in POWERS if power != "TURKEY"},
              "TURKEY": (new_turkey, NEW_TURKEY), "OLD TURKEY": (old_turkey, old_name)}
    for reader, (address, _) in people.items():
        inbox = [message for _, _, raw in dovecot.messages(address)
                 for message in [email.message_from_bytes(raw, policy=email.policy.default)]]
        assert inbox, reader
        for message in inbox:
            seen = everything_in(message)
            for other, (other_address, other_name) in people.items():
                if other_address == address:
                    continue
                for secret in (other_address, other_address.split("@")[0], other_name, other_name.split()[-1]):
                    assert secret.lower() not in seen, (reader, str(message["Subject"]), other, secret)

    # the game was played: two reports each, press relayed under the powers' names only
    france = [flat(m) for m in table.inbox("FRANCE")]
    assert sum("results" in text and "Movement" in text for text in france) >= 2
    assert any("Anonymous press" in text and "Beware of the Kaiser." in text for text in france)
    assert any("Press from Italy" in text and "keep out of Piedmont" in text for text in france)
    assert any("THE PLAYERS" in text and "Italy played anonymously" in text for text in france)
    assert any("Turkey has a new player" in text for text in france)
    assert any("The new Sultan greets everyone." in text for text in france)
    assert any("Someone is lying to you all." in text for text in france)  # published, its author unnamed
    assert any("Who plays the other powers is not shown in this game." in text for text in france)  # LIST
    assert any("(address not shown)" in text for text in france)  # SUMMARY: the replacement, no address

    # the end, and the GM's choice to reveal: now, and only now, each player learns who played whom
    gm_controls.act(services, "gunboat", gm_controls.end_game, now=clock())
    gm_controls.act(services, "gunboat", gm_controls.reveal, now=clock())
    deliver_everything(services, transport, clock())
    for address in (*(table.players[p] for p in POWERS), old_turkey):
        [revealed] = [flat(m) for _, _, raw in dovecot.messages(address)
                      for m in [email.message_from_bytes(raw, policy=email.policy.default)]
                      if "who played whom" in str(m["Subject"])]
        assert f"France: {table.players['FRANCE']}" in revealed
        assert f"Turkey: {new_turkey} (before: {old_turkey} until Fall 1901 Movement)" in revealed
