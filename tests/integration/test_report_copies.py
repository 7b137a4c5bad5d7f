"""A deadline stores one report per game and a light outbox row per
player; the sender writes each player's copy when it sends it (services/base/report_copies.py). The
outbox's promises hold for these rows as for every other: nothing lost, a retry sends the same
bytes with the same Message-ID, a crash between claiming and sending loses nothing, and a
player's copy carries that player's data only. On SQLite and PostgreSQL."""

from __future__ import annotations

import email
import email.policy
import json
import mailbox
from urllib.parse import quote

import pytest
from sqlalchemy import func, select, text

from gmserver.db.models import OutboxMessage, Player, StoredReport
from gmserver.db.session import transaction
from gmserver.mail.outbound import MaildirTransport, TransientError
from gmserver.rules.authenticity import reply_token
from gmserver.rules.subject import format_subject
from gmserver.services.base import report_copies as report_mail
from gmserver.services.base.outbox import LEASE, deliver_due, message_bytes
from gmserver.services.game.games import POWERS
from gmserver.services.turn import turns
from tests.support.world import new_game, player_address, services_for

pytestmark = pytest.mark.integration


class SenderCrash(BaseException):
    """Stands for the sending process dying (not an Exception: nothing may catch it)."""


class Recording:
    """A transport that keeps what it was handed; `fail` says, per (recipient, attempt), whether
    to answer with a temporary failure, `crash` whether to die before sending."""

    def __init__(self, fail=lambda recipient, attempt: False, crash=lambda count: False) -> None:
        self.fail, self.crash = fail, crash
        self.handed: list[tuple[str, bytes, str]] = []

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        if self.crash(len(self.handed) + 1):
            raise SenderCrash()
        self.handed.append((recipient, raw, message_id))
        if self.fail(recipient, sum(1 for r, _, _ in self.handed if r == recipient)):
            raise TransientError("451 try again later")
        return "ok"

    def close(self) -> None:
        pass


@pytest.fixture()
def adjudicated(database_url, clock):
    """A verified game (every player has a secret) adjudicated at its first deadline."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), sender_check="verified")
    clock.advance(hours=48)
    [done] = turns.adjudicate_due(services, clock())
    assert done.reports == 7
    return services, game_id


def report_rows(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "report")
                                    .order_by(OutboxMessage.id)))


def test_the_deadline_stores_one_report_and_a_light_row_per_player(adjudicated) -> None:
    """Nothing is written at the deadline: one stored report, seven rows pointing at it, each
    with its Message-ID already fixed."""
    services, game_id = adjudicated
    rows = report_rows(services)
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(StoredReport.id))) == 1
    assert sorted(row.recipient for row in rows) == sorted(player_address(p) for p in POWERS)
    assert all(row.stored == b"" and row.report_id == rows[0].report_id for row in rows)
    assert len({row.message_id for row in rows}) == 7


def test_the_stored_report_is_json_a_gm_reads_with_sql(adjudicated) -> None:
    """What a GM's database tool shows (plain SQL, no gmserver): text, JSON of version 2, the
    report of the game's first turn, Spring 1901, whose next turn is Fall 1901 (services/base/report_copies.py)."""
    services, game_id = adjudicated
    with transaction(services.sessions) as session:
        key, payload = session.execute(text("SELECT key, payload FROM reports")).one()
    assert isinstance(payload, str) and key == f"report:{game_id}:S1901M:"
    data = json.loads(payload)
    assert data["version"] == 2 and data["report"]["key"] == key
    [report] = data["report"]["contexts"]
    assert (report["phase"], report["next_phase"], report["game_name"]) == ("S1901M", "F1901M", "lepanto")


def test_a_retry_sends_the_same_bytes_and_message_id(adjudicated, clock) -> None:
    """France's copy fails the first time: the retry a minute later hands the relay the very
    bytes of the first attempt, kept in the row, with the Message-ID fixed at the deadline; and
    writing the copy again from the stored report, in a fresh cache, gives those bytes too."""
    services, _ = adjudicated
    transport = Recording(fail=lambda recipient, attempt: recipient == player_address("FRANCE") and attempt == 1)
    assert deliver_due(services.sessions, transport, clock()).retrying == 1
    france = next(row for row in report_rows(services) if row.recipient == player_address("FRANCE"))
    first = [(raw, mid) for r, raw, mid in transport.handed if r == france.recipient]
    assert france.status == "pending" and france.stored == first[0][0]
    report_mail.forget_written()
    assert france.raw == first[0][0]  # stored: no new writing
    with transaction(services.sessions) as session:
        payload = session.get(StoredReport, france.report_id).payload
    assert report_mail.write_copy(payload, to=france.recipient, subject=france.addressing["subject"],
                                  reply_secret=france.addressing["reply_secret"], message_id=france.message_id,
                                  power=france.addressing["power"]) == first[0][0]
    assert deliver_due(services.sessions, transport, clock.advance(minutes=1)).sent == 1
    again = [(raw, mid) for r, raw, mid in transport.handed if r == france.recipient]
    assert len(again) == 2 and again[1] == again[0] and again[0][1] == france.message_id
    assert f"Message-ID: {france.message_id}".encode() in again[0][0]


def test_a_copy_not_sent_yet_is_written_by_an_explicit_call(adjudicated, clock) -> None:
    """A reader of a copy not sent yet (the GM's `outbox` commands, tests) asks the outbox to write
    it (`message_bytes`), and gets the bytes the sender then sends; the row itself writes nothing
    (no hook on the model: the database layer knows no report writer), and says whom to ask."""
    services, _ = adjudicated
    france = next(row for row in report_rows(services) if row.recipient == player_address("FRANCE"))
    with pytest.raises(ValueError, match="message_bytes"):
        _ = france.raw
    written = message_bytes(france)
    transport = Recording()
    assert deliver_due(services.sessions, transport, clock()).sent == 7
    assert [raw for recipient, raw, _ in transport.handed if recipient == france.recipient] == [written]


def test_a_crash_between_claiming_and_sending_loses_nothing(adjudicated, clock, tmp_path) -> None:
    """The sender dies after claiming the batch, before the third copy goes: nothing else is sent
    until the lease runs out; then every player gets exactly one copy, each with its row's
    Message-ID (the Maildir stores a copy handed over twice once)."""
    services, _ = adjudicated
    maildir = MaildirTransport(tmp_path / "md")

    class DiesAtTheThird(Recording):
        def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
            super().send(sender, recipient, raw, message_id=message_id)
            return maildir.send(sender, recipient, raw, message_id=message_id)

    with pytest.raises(SenderCrash):
        deliver_due(services.sessions, DiesAtTheThird(crash=lambda count: count == 3), clock())
    statuses = sorted(row.status for row in report_rows(services))
    assert statuses == ["sending"] * 5 + ["sent"] * 2
    assert deliver_due(services.sessions, maildir, clock()).sent == 0  # leased: nobody else sends them
    assert deliver_due(services.sessions, maildir, clock.advance(minutes=LEASE.seconds // 60 + 1)).sent == 5
    rows = report_rows(services)
    assert all(row.status == "sent" for row in rows)
    delivered = sorted((str(m["Delivered-To"]), str(m["Message-ID"])) for m in mailbox.Maildir(tmp_path / "md"))
    assert delivered == sorted((row.recipient, row.message_id) for row in rows)


def test_each_players_copy_carries_only_that_players_data(adjudicated, clock) -> None:
    """Each copy is addressed to its player, with that player's reply address (the secret that
    proves a sender in a verified game) and the subject line for that player's own next orders
   , and no other player's address, secret or subject line anywhere; the copies differ
    in To, Reply-To, Subject, Message-ID, that line and the offer to write to the player's own
    reply address with it, only."""
    services, game_id = adjudicated
    with transaction(services.sessions) as session:
        # the reply token of the turn the report opens, and the password, which no mail carries
        players = {p.power: (p.address, reply_token(p.secret, "F1901M")) for p in session.scalars(select(Player).where(
            Player.game_id == game_id))}
        passwords = [p.secret for p in session.scalars(select(Player).where(Player.game_id == game_id))]
    assert all(secret for _, secret in players.values())
    own_line = {power: format_subject(template="standard", game_name="lepanto", power=power, phase="F1901M",
                                      purpose="orders") for power in players}
    transport = Recording()
    assert deliver_due(services.sessions, transport, clock()).sent == 7
    texts = set()
    for recipient, raw, _ in transport.handed:
        [power] = [p for p, (address, _) in players.items() if address == recipient]
        message = email.message_from_bytes(raw, policy=email.policy.default)
        assert message["To"] == recipient and players[power][1] in str(message["Reply-To"])
        text, html = (message.get_body((kind,)).get_content() for kind in ("plain", "html"))
        assert own_line[power] in text and own_line[power] in html
        assert not any(password.encode() in raw for password in passwords)
        for other, (address, secret) in players.items():
            if other != power:
                assert address.encode() not in raw and secret.encode() not in raw, (power, other)
                assert own_line[other] not in text and own_line[other] not in html, (power, other)
        # the offer to write to the player's own reply address (reports/mailto.py) names its token
        texts.add(tuple(part.replace(own_line[power], "LINE").replace(quote(own_line[power], safe=""), "LINE")
                        .replace(players[power][1], "TOKEN") for part in (text, html)))
        names = {line.split(b":", 1)[0] for line in raw.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
                 if line and not line[:1].isspace()}
        assert {b"To", b"Reply-To", b"Subject", b"Message-ID", b"Date", b"From"} <= names
    assert len(texts) == 1  # but for that line, the same report to all


def test_a_copy_is_what_the_email_package_writes_for_it(adjudicated, monkeypatch) -> None:
    """When nothing in the parts is the player's own (no next turn to order for), write_copy
    writes the shared parts once per report and only the headers per player: the bytes are
    exactly what EmailMessage.as_bytes gives for the readdressed report (ASCII and, under
    SMTPUTF8, a non-ASCII address)."""
    services, _ = adjudicated
    [row, *_] = report_rows(services)
    with transaction(services.sessions) as session:
        payload = session.get(StoredReport, row.report_id).payload
    monkeypatch.setattr(report_mail, "with_orders_subject", lambda text, *args, **kwargs: text)
    base, composer, _ = report_mail._base_message(payload)
    for to, policy in ((row.recipient, email.policy.SMTP), ("jürgen@players.test", email.policy.SMTPUTF8)):
        written = report_mail.write_copy(payload, to=to, subject="lepanto S1901M", reply_secret="s3cret",
                                         message_id="<one@gm.test>", power="FRANCE")
        whole = composer.readdress(base, to=to, subject="lepanto S1901M", reply_secret="s3cret",
                                   message_id="<one@gm.test>").as_bytes(policy=policy)
        assert written == whole


def test_a_copy_with_the_players_own_line_is_what_the_email_package_writes_for_it(adjudicated, monkeypatch) -> None:
    """Each player's copy has the player's own subject line in its text and HTML parts; the parts
    it shares with the report's mail (the map, the chart, the .ics) are written from bytes
    serialised once per report. The bytes are exactly what the email package writes for the
    whole copy, for each power, ASCII and SMTPUTF8, whichever copy of the report is written first."""
    services, _ = adjudicated
    [row, *_] = report_rows(services)
    with transaction(services.sessions) as session:
        payload = session.get(StoredReport, row.report_id).payload
    copies = [(power, to) for power in ("FRANCE", "TURKEY") for to in (row.recipient, "jürgen@players.test")]

    def written() -> list[bytes]:
        return [report_mail.write_copy(payload, to=to, subject="lepanto S1901M", reply_secret="s3cret",
                                       message_id="<one@gm.test>", power=power) for power, to in copies]

    report_mail.forget_written()
    shared = written()
    report_mail.forget_written()
    assert list(reversed(shared)) == [report_mail.write_copy(payload, to=to, subject="lepanto S1901M",
                                                              reply_secret="s3cret", message_id="<one@gm.test>",
                                                              power=power) for power, to in reversed(copies)]
    assert shared[0] != shared[2]  # France's own line is not Turkey's
    report_mail.forget_written()
    # every part written whole, every text part by set_content
    monkeypatch.setattr(report_mail, "_written_parts", lambda payload, utf8: report_mail.WrittenParts())
    monkeypatch.setattr(report_mail, "_rewriters", lambda payload: None)
    assert written() == shared


def test_a_report_that_cannot_be_written_fails_its_copies_visibly_and_stops_nothing(adjudicated, clock) -> None:
    """A stored report this gmserver cannot read (say, written by another version) fails each
    copy with a reason the GM can read, at once (no retry could help), and the rest of the
    outbox is sent."""
    services, game_id = adjudicated
    with transaction(services.sessions) as session:
        session.get(StoredReport, report_rows(services)[0].report_id).payload = "not a report"
    report_mail.forget_written()
    enqueue_note = services.composer.compose(to="gm@gm.test", subject="a note", body="hello",
                                             auto_submitted="auto-generated", date=clock())
    from gmserver.services.base.outbox import queue
    with transaction(services.sessions) as session:
        queue(session, enqueue_note, kind="alert", dedupe_key="note", now=clock())
    transport = Recording()
    report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.failed) == (1, 7) and [r for r, _, _ in transport.handed] == ["gm@gm.test"]
    rows = report_rows(services)
    assert all(row.status == "failed" and row.last_error.startswith("the report could not be written")
               for row in rows)


@pytest.mark.parametrize(("column", "hostile", "why"), [
    ("message_id", "<one@gm.test>\r\nBcc: x@attacker.test", "the report could not be written"),
    ("recipient", "france@players.test>, x@attacker.test", "not sent: the recipient"),
    ("recipient", "x@attacker.test\r\nBcc: y@attacker.test", "the report could not be written"),
])
def test_a_copy_whose_own_headers_are_hostile_is_refused(adjudicated, clock, column, hostile, why) -> None:
    """A player's copy is written with its own header block (To, Reply-To, Subject, Message-ID)
    made without parsing where the email package writes the value as it is (compose.plain_header):
    a row whose own values were tampered with in the database is still refused at the sender,
    failed with why, and never handed to the relay; the other six copies go."""
    services, _ = adjudicated
    france = next(row for row in report_rows(services) if row.recipient == player_address("FRANCE"))
    with transaction(services.sessions) as session:
        setattr(session.get(OutboxMessage, france.id), column, hostile)
    transport = Recording()
    report = deliver_due(services.sessions, transport, clock())
    assert (report.sent, report.failed) == (6, 1)
    assert not any(b"attacker" in raw or recipient == hostile for recipient, raw, _ in transport.handed)
    refused = next(row for row in report_rows(services) if row.id == france.id)
    assert refused.status == "failed" and refused.last_error.startswith(why), refused.last_error
