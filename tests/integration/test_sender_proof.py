"""A DKIM signature, or a trusted server's verdict on one, vouches for a message only when it
binds the message to the GM and to now (gmserver.rules.authenticity): France's genuinely signed
mail re-sent by someone else, re-addressed, lengthened or replayed in a later turn is not France's
orders. Real keys and signatures (dkimpy), the DNS answered by the test, SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing

import dkim
import pytest
from sqlalchemy import select, text

from gmserver.db.models import InboundMessage, OrderSet
from gmserver.db.session import make_engine, transaction
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from gmserver.services.base.context import SenderChecks
from tests.support.dkim import new_dkim_key
from tests.support.intake_rows import deliver as deliver_row, outbox_rows, plain_text, player_reply_address
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")
ENGLAND = player_address("ENGLAND")
# what a big provider signs (Gmail's list, less the headers these mails lack)
PROVIDER_SIGNS = [b"from", b"to", b"subject", b"date", b"message-id"]
TRUSTED_PASS = ("Authentication-Results: mx.gm.test; dkim=pass header.d=players.test; "
                "dmarc=pass header.from=players.test\r\n").encode()


def subject(phase: str) -> str:
    return format_subject(template="standard", game_name="lepanto", power="FRANCE", phase=phase, purpose="orders")


@pytest.fixture(scope="module")
def dkim_key(tmp_path_factory) -> tuple[bytes, str]:
    return new_dkim_key(tmp_path_factory.mktemp("dkim"))


@pytest.fixture
def world(make_world, dkim_key):
    _, record = dkim_key
    keys = {"sel._domainkey.players.test.": record}
    return make_world(sender_checks=SenderChecks(
        trusted_authserv_ids=("mx.gm.test",),
        dkim_lookup=lambda name, timeout=5: keys.get(name.decode() if isinstance(name, bytes) else name)),
        sender_check="verified")


def signed(message: bytes, private: bytes, *, headers=PROVIDER_SIGNS, length: bool = False) -> bytes:
    return dkim.sign(message, b"sel", b"players.test", private, include_headers=headers, length=length) + message


def deliver(services, clock, raw: bytes) -> str:
    return deliver_row(services, raw, clock()).outcome


def order_sets(services) -> list[tuple[str, list[str]]]:
    with transaction(services.sessions) as session:
        return [(s.power, s.orders) for s in session.scalars(select(OrderSet).order_by(OrderSet.id))]


def warnings(services) -> list[str]:
    return [" ".join(plain_text(row).split()) for row in outbox_rows(services, "rejection")]


def test_a_provider_that_signs_from_to_subject_and_date_still_proves_the_player(world, clock, dkim_key) -> None:
    private, _ = dkim_key
    mail = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock()), private)
    assert deliver(world, clock, mail) == "accepted"
    # over-signed (h= names a header once more than the message has it) is fine too
    mail = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - PIC\n", date=clock()), private,
                  headers=PROVIDER_SIGNS + [b"from", b"to", b"subject", b"date"])
    assert deliver(world, clock, mail) == "accepted"
    assert order_sets(world) == [("FRANCE", ["A PAR - BUR"]), ("FRANCE", ["A PAR - PIC"])]


def test_negotiation_mail_to_england_with_a_new_subject_and_to_on_top_is_not_frances_orders(
        world, clock, dkim_key) -> None:
    """France's provider signed her mail to England; England (or anyone who saw it) puts a GM To
    and an order Subject above the signed ones, which a DKIM verifier does not look at."""
    private, _ = dkim_key
    to_england = signed(order_mail(FRANCE, "Our alliance", "F BRE - ENG\nA PAR - PIC\n", to=ENGLAND,
                                   date=clock()), private)
    forged = f"Subject: {subject('S1901M')}\r\nTo: {GM}\r\n".encode() + to_england
    assert deliver(world, clock, forged) == "unverified"
    # the trusted receiving server's pass, which comes from the same bottom-most copies, neither
    assert deliver(world, clock, TRUSTED_PASS + forged.replace(b"F BRE", b"F  BRE")) == "unverified"
    assert order_sets(world) == []
    [warning] = warnings(world)  # the second warning waits for the hour
    assert "more than one To, Subject header" in warning and "reply" in warning


def test_mail_signed_to_another_address_is_not_orders_even_under_an_unsigned_to(world, clock, dkim_key) -> None:
    """The provider signed no To: the GM's To can be written in by anyone."""
    private, _ = dkim_key
    mail = signed(order_mail(FRANCE, subject("S1901M"), "F BRE - ENG\n", date=clock()), private,
                  headers=[b"from", b"subject", b"date", b"message-id"])
    assert deliver(world, clock, mail) == "unverified"
    assert "does not cover its To header" in warnings(world)[0]


def test_lines_appended_after_an_l_limited_body_are_not_read_as_orders(world, clock, dkim_key) -> None:
    private, _ = dkim_key
    mail = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock()), private, length=True)
    assert deliver(world, clock, mail + b"F BRE - ENG\nA MAR - PIE\n") == "unverified"
    assert order_sets(world) == []
    assert "covers only the first part of the text (l=)" in warnings(world)[0]


def test_frances_spring_mail_replayed_in_the_fall_is_refused(world, clock, dkim_key) -> None:
    """S1901M's signed orders, re-sent in F1901M with a new Subject and Message-ID on top."""
    private, _ = dkim_key
    spring = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock(),
                               message_id="<spring@players.test>"), private)
    assert deliver(world, clock, spring) == "accepted"
    clock.advance(hours=49)
    turns.adjudicate_due(world, clock())
    replay = f"Subject: {subject('F1901M')}\r\nMessage-ID: <fall@players.test>\r\n".encode() + spring
    assert deliver(world, clock, replay) == "unverified"
    assert order_sets(world) == [("FRANCE", ["A PAR - BUR"])]


def test_an_earlier_signed_set_re_sent_in_the_same_turn_does_not_replace_a_newer_one(world, clock, dkim_key) -> None:
    """An ally who saw France's first signed set re-sends it, with a new Message-ID, after France
    sent a newer one: written before the set on file, it is an old mail, not France's orders."""
    private, _ = dkim_key
    no_message_id = [b"from", b"to", b"subject", b"date"]  # a provider that does not sign Message-ID
    first = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock(),
                              message_id="<first@players.test>"), private, headers=no_message_id)
    assert deliver(world, clock, first) == "accepted"
    clock.advance(minutes=30)
    newer = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - PIC\n", date=clock()), private,
                   headers=no_message_id)
    assert deliver(world, clock, newer) == "accepted"
    clock.advance(minutes=30)
    replay = first.replace(b"<first@players.test>", b"<again@ally.test>")
    assert deliver(world, clock, replay) == "unverified"
    assert order_sets(world)[-1] == ("FRANCE", ["A PAR - PIC"])
    assert "older than that of the orders you have on file" in warnings(world)[-1]


def test_a_signed_mail_written_more_than_a_day_before_it_arrived_is_not_believed(world, clock, dkim_key) -> None:
    """Everything signed, nothing added, but the Date is old: kept mail re-sent later."""
    private, _ = dkim_key
    old = signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock()), private)
    clock.advance(hours=25)
    assert deliver(world, clock, old) == "unverified"
    assert order_sets(world) == []
    assert "Its Date" in warnings(world)[0] and "old mail of yours re-sent" in warnings(world)[0]


def transaction_open(database_url: str) -> bool:
    """Whether some connection holds a transaction open on the database now (SQLite: its write
    lock, which BEGIN IMMEDIATE takes; PostgreSQL: a session idle in a transaction)."""
    if database_url.startswith("sqlite"):
        with closing(sqlite3.connect(database_url.removeprefix("sqlite:///"), timeout=0)) as probe:
            try:
                probe.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError:
                return True
            probe.rollback()
            return False
    engine = make_engine(database_url)
    try:
        with engine.connect() as probe:
            return probe.scalar(text("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                                     "AND state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()")) > 0
    finally:
        engine.dispose()


def test_dkim_look_ups_run_outside_the_transaction(database_url, clock, dkim_key) -> None:
    """DNS look-ups take seconds when a domain does not answer: meanwhile the database must be
    free for the listener storing other mail (on SQLite a transaction holds the write lock)."""
    private, record = dkim_key
    seen: list[bool] = []

    def lookup(name, timeout=5):
        seen.append(transaction_open(database_url))
        return record if (name.decode() if isinstance(name, bytes) else name) == "sel._domainkey.players.test." \
            else None

    services = services_for(database_url, sender_checks=SenderChecks(dkim_lookup=lookup))
    new_game(services, clock(), sender_check="verified")
    forged = (b"DKIM-Signature: v=1; a=rsa-sha256; d=mx.players.test; s=sel; h=from:to:subject:date; bh=AAAA; "
              b"b=AAAA\r\n" + order_mail(FRANCE, subject("S1901M"), "F BRE - ENG\n", date=clock()))
    assert deliver(services, clock, forged) == "unverified"
    assert deliver(services, clock, signed(order_mail(FRANCE, subject("S1901M"), "A PAR - BUR\n", date=clock()),
                                           private)) == "accepted"
    assert seen == [False, False]


def test_a_players_mail_is_answered_while_a_forgers_dkim_look_ups_hang(database_url, clock) -> None:
    """A forged mail whose DKIM key look-up never answers waits on a look-up thread: the proven
    order mail queued behind it is read and answered meanwhile, not after the look-up's budget."""
    hanging, asked = threading.Event(), threading.Event()

    def lookup(name, timeout=5):
        asked.set()
        hanging.wait(60)  # released by the test once the proven mail is done
        return None

    services = services_for(database_url, sender_checks=SenderChecks(dkim_lookup=lookup))
    new_game(services, clock(), sender_check="verified")
    forged = (b"DKIM-Signature: v=1; a=rsa-sha256; d=mx.players.test; s=sel; h=from:to:subject:date; bh=AAAA; "
              b"b=AAAA\r\n" + order_mail(FRANCE, subject("S1901M"), "F BRE - ENG\n", date=clock()))
    first = intake.store(services.sessions, forged, source="smtp", now=clock()).id
    proven = order_mail(ENGLAND, format_subject(template="standard", game_name="lepanto", power="ENGLAND",
                                                phase="S1901M", purpose="orders"), "F LON - NTH\n",
                        to=player_reply_address(services, "ENGLAND"))
    second = intake.store(services.sessions, proven, source="smtp", now=clock()).id
    job = threading.Thread(target=intake.process_pending, args=(services, clock()))
    job.start()
    try:
        assert asked.wait(30)
        assert wait_for(lambda: status_of(services, second) == "done", timeout=30), "England's mail waited"
        assert status_of(services, first) == "pending"  # its look-up still hangs
    finally:
        hanging.set()
        job.join(60)
    assert status_of(services, first) == "done"


def status_of(services, inbound_id: int) -> str:
    with transaction(services.sessions) as session:
        return session.get(InboundMessage, inbound_id).status


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_signatures_of_other_domains_cost_no_look_up(database_url, clock) -> None:
    """Only a signature aligned with From can prove anything: a forger's four signatures of
    domains that never answer are not looked up at all."""
    asked: list[str] = []

    def lookup(name, timeout=5):
        asked.append(name)
        return None

    services = services_for(database_url, sender_checks=SenderChecks(dkim_lookup=lookup))
    new_game(services, clock(), sender_check="verified")
    forged = b"".join(b"DKIM-Signature: v=1; a=rsa-sha256; d=dead%d.test; s=sel; h=from:to:subject:date; "
                      b"bh=AAAA; b=AAAA\r\n" % n for n in range(4)) + order_mail(FRANCE, subject("S1901M"),
                                                                               "F BRE - ENG\n", date=clock())
    assert deliver(services, clock, forged) == "unverified"
    assert asked == []
