"""Inbound mail through the service layer on a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import email
import email.policy
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.rules.subject import format_subject
from gmserver.services.base.reply_limits import NOTICES_PER_HOUR
from gmserver.services.game import filing
from gmserver.services.inbox import runner as intake
from tests.support.hostile import nested_multipart
from tests.support.intake_rows import player_reply_address, without_headers
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def subject(power: str, phase: str = "S1901M", game: str = "lepanto") -> str:
    return format_subject(template="standard", game_name=game, power=power, phase=phase, purpose="orders")


def outbox(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def parsed(row: OutboxMessage) -> email.message.EmailMessage:
    return email.message_from_bytes(row.raw, policy=email.policy.default)


def test_a_message_is_stored_once_even_when_delivered_twice(world, clock) -> None:
    raw = order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - BUR\n", message_id="<one@players.test>")
    first = intake.store(world.sessions, raw, source="imap", now=clock())
    # the same message along another path: one more Received header
    again = intake.store(world.sessions, b"Received: from relay.test\r\n" + raw, source="smtp", now=clock())
    assert not first.duplicate and again.duplicate and again.id == first.id
    with transaction(world.sessions) as session:
        assert session.scalar(select(func.count(InboundMessage.id))) == 1


def test_without_a_message_id_going_back_to_an_earlier_set_is_not_dropped_as_a_duplicate(world, clock) -> None:
    """A CON H, A CON - BUL, A CON H from a mail program that writes no Message-ID nor Date: the
    third is the player's set, not a redelivery of the first (same words, same path, nothing that
    marks one sending). The orders on file are A CON H."""
    def turkish(orders: str) -> bytes:
        return without_headers(order_mail(player_address("TURKEY"), subject("TURKEY"), orders), b"Message-ID:")

    stored = [intake.store(world.sessions, turkish(orders), source="smtp", now=clock())
              for orders in ("A CON H", "A CON - BUL", "A CON H")]
    assert [s.duplicate for s in stored] == [False, False, False] and len({s.id for s in stored}) == 3
    assert [outcome for _, outcome in intake.process_pending(world, clock())] == ["accepted"] * 3
    with transaction(world.sessions) as session:
        latest = session.scalars(select(OrderSet).order_by(OrderSet.version.desc())).first()
        assert (latest.version, latest.orders) == (3, ["A CON H"])


def test_without_a_message_id_a_redelivery_is_still_stored_once(world, clock) -> None:
    """What a server redelivers: the same IMAP folder, UIDVALIDITY and UID; a relay's retry with
    the same first-hop Received line; the same message along the other path. A new sending of the
    same words through a relay carries a new Received line and is a message of its own."""
    bare = without_headers(order_mail(player_address("TURKEY"), subject("TURKEY"), "A CON H"), b"Message-ID:")
    first = intake.store(world.sessions, bare, source="imap", now=clock(), mailbox="INBOX", uidvalidity=7, uid=41)
    assert intake.store(world.sessions, bare, source="imap", now=clock(), mailbox="INBOX", uidvalidity=7,
                        uid=41) == intake.Stored(first.id, True)
    assert intake.store(world.sessions, bare, source="smtp", now=clock()) == intake.Stored(first.id, True)

    def relayed(queue_id: str) -> bytes:
        return (f"Received: from pc.players.test by mx.players.test id {queue_id}; "
                "Fri, 27 Nov 2026 14:00:00 +0000\r\n").encode() + bare
    second = intake.store(world.sessions, relayed("4AbC1"), source="smtp", now=clock())
    assert not second.duplicate
    assert intake.store(world.sessions, relayed("4AbC1"), source="smtp", now=clock()) == intake.Stored(second.id, True)
    assert not intake.store(world.sessions, relayed("9XyZ2"), source="smtp", now=clock()).duplicate


def test_accepted_orders_are_stored_as_a_version_and_confirmed(world, clock) -> None:
    raw = order_mail(player_address("FRANCE"), subject("FRANCE"), "Dear GM,\n\nA Par-Bur\nF Bre -> MAO\nA Mar H\n\n-- \nJo\n",
                     message_id="<fr1@players.test>")
    intake.store(world.sessions, raw, source="smtp", now=clock())
    assert intake.process_pending(world, clock()) == [(1, "accepted")]
    with transaction(world.sessions) as session:
        order_set = session.scalar(select(OrderSet))
        assert (order_set.power, order_set.phase, order_set.version) == ("FRANCE", "S1901M", 1)
        assert sorted(order_set.orders) == ["A MAR H", "A PAR - BUR", "F BRE - MAO"]
    [reply] = outbox(world)
    message = parsed(reply)
    assert reply.kind == "confirmation" and reply.recipient == player_address("FRANCE")
    assert message["Auto-Submitted"] == "auto-replied"
    assert message["In-Reply-To"] == "<fr1@players.test>"
    body = message.get_body(("plain",)).get_content()
    assert "A PAR - BUR" in body and "F BRE - MAO" in body


def test_every_version_is_kept_and_numbered(world, clock) -> None:
    for _n, orders in enumerate(["A PAR - BUR", "A PAR - PIC"], start=1):
        intake.store(world.sessions, order_mail(player_address("FRANCE"), subject("FRANCE"), orders), source="smtp",
                     now=clock())
        intake.process_pending(world, clock())
    with transaction(world.sessions) as session:
        sets = session.execute(select(OrderSet.version, OrderSet.orders).order_by(OrderSet.version)).all()
    assert [(v, o) for v, o in sets] == [(1, ["A PAR - BUR"]), (2, ["A PAR - PIC"])]


def test_fallback_address_may_order(world, clock) -> None:
    intake.store(world.sessions, order_mail("france.backup@players.test", subject("FRANCE"), "A PAR H"),
                 source="smtp", now=clock())
    assert intake.process_pending(world, clock())[0][1] == "accepted"


@pytest.mark.parametrize(("sender", "subject_line", "reason", "kind"), [
    # a stranger is not told that the game it named exists
    pytest.param("stranger@elsewhere.test", subject("FRANCE"), "not registered as a player in any game run here",
                 "stranger-refusal", id="unregistered sender"),
    pytest.param(player_address("GERMANY"), subject("FRANCE"), "registered for Germany", "rejection", id="wrong power"),
    pytest.param(player_address("FRANCE"), "my orders", "does not name your game", "rejection",
                 id="subject without the game"),
    pytest.param(player_address("FRANCE"), subject("FRANCE", phase="F1901M"), "Fall 1901", "rejection",
                 id="wrong season"),
])
def test_rejected_messages_get_a_reply_saying_why(world, clock, sender, subject_line, reason, kind) -> None:
    intake.store(world.sessions, order_mail(sender, subject_line, "A PAR - BUR"), source="smtp", now=clock())
    assert intake.process_pending(world, clock())[0][1] == "rejected"
    [reply] = outbox(world)
    assert reply.kind == kind and reply.recipient == sender
    body = " ".join(parsed(reply).get_body(("plain",)).get_content().split())
    assert reason in body
    with transaction(world.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id))) == 0


@pytest.mark.parametrize(("ruleset", "rule"), [
    ("mhr", "Orders are read only from a message whose subject line names the game, your power and the turn, "
            "as shown above (000 II(2) b)."),
    ("scorpion", "Write the subject line as shown above; the game, power and turn may also be given in the first "
                 "lines of the message (003 [10])."),
])
def test_a_subject_refusal_says_the_house_rule_with_its_clause(database_url, clock, ruleset, rule) -> None:
    """000 II(2) b, 003 [10]: a message refused for its subject says the rule it broke, in words
    with the clause, beside the subject that would have been accepted (it said neither)."""
    services = services_for(database_url)
    new_game(services, clock(), name="dublin", ruleset=ruleset)
    intake.store(services.sessions, order_mail(player_address("FRANCE"), "my orders", "A PAR - BUR"),
                 source="smtp", now=clock())
    assert intake.process_pending(services, clock())[0][1] == "rejected"
    [reply] = outbox(services)
    assert rule in " ".join(parsed(reply).get_body(("plain",)).get_content().split())


@pytest.mark.parametrize("headers", [
    {"Auto-Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"Return-Path": "<>"},
], ids=["auto-submitted", "precedence bulk", "bounce"])
def test_automated_mail_is_never_answered(world, clock, headers) -> None:
    raw = order_mail("mailer-daemon@players.test", "Undeliverable: lepanto", "bounce", headers=headers)
    intake.store(world.sessions, raw, source="smtp", now=clock())
    assert intake.process_pending(world, clock())[0][1] == "ignored"
    assert outbox(world) == []


def test_processing_twice_does_nothing_the_second_time(world, clock) -> None:
    stored = intake.store(world.sessions, order_mail(player_address("ITALY"), subject("ITALY"), "A VEN H"),
                          source="smtp", now=clock())
    assert intake.process_one(world, stored.id, clock()) == "accepted"
    assert intake.process_one(world, stored.id, clock()) is None
    assert len(outbox(world)) == 1


def test_a_crash_parks_the_message_with_its_traceback_and_replay_recovers(world, clock, monkeypatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("reader exploded")

    monkeypatch.setattr(filing, "read_mail", broken)
    stored = intake.store(world.sessions, order_mail(player_address("ITALY"), subject("ITALY"), "A VEN H"),
                          source="smtp", now=clock())
    assert intake.process_pending(world, clock()) == [(stored.id, "failed")]
    with transaction(world.sessions) as session:
        row = session.get(InboundMessage, stored.id)
        assert row.status == "failed" and "reader exploded" in row.error and "Traceback" in row.error
        assert session.scalar(select(func.count(OrderSet.id))) == 0
    assert outbox(world) == []  # the rolled-back transaction queued nothing
    monkeypatch.undo()
    assert intake.replay(world, stored.id, clock()) == "accepted"


def test_concurrent_workers_process_each_message_exactly_once(world, clock) -> None:
    for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"):
        intake.store(world.sessions, order_mail(player_address(power), subject(power), "hello"), source="smtp",
                     now=clock())
    results: list[list] = []
    threads = [threading.Thread(target=lambda: results.append(intake.process_pending(world, clock())))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    processed = sorted(row_id for batch in results for row_id, _ in batch)
    assert processed == list(range(1, 8))
    assert len(outbox(world)) == 7


def test_the_deadline_is_judged_by_receipt_not_processing_time_003_10(database_url, clock) -> None:
    """003 [10] (orders_accepted_until = deadline): a set that reached the GM before the deadline
    counts even if gmserver processes it a little after."""
    services = services_for(database_url)
    new_game(services, clock(), name="scorp", ruleset="scorpion")
    subject = format_subject(template="scorpion", game_name="scorp", power="FRANCE", phase="S1901M", purpose="orders")
    deadline = clock() + timedelta(hours=48)  # the turn length new_game sets
    intake.store(services.sessions, order_mail(player_address("FRANCE"), subject, "A Par-Bur"), source="imap",
                 now=deadline + timedelta(seconds=2), received_at=deadline - timedelta(seconds=1))
    intake.store(services.sessions, order_mail(player_address("GERMANY"), subject.replace("FRANCE", "GERMANY"),
                                               "A Mun-Ruh"), source="imap", now=deadline + timedelta(seconds=2),
                 received_at=deadline + timedelta(seconds=1))
    outcomes = [outcome for _, outcome in intake.process_pending(services, deadline + timedelta(seconds=3))]
    assert outcomes == ["accepted", "rejected"]


def test_the_heading_line_read_for_the_subject_is_not_called_no_order_003_10(database_url, clock) -> None:
    """003 [10] (subject_location = subject_or_body): the subject "my orders" names nothing, the
    first line of the message names game, power and turn; the confirmation said of that line "Not
    an order." (QA walkthrough) and says now it was read as the game, power and turn line."""
    services = services_for(database_url)
    new_game(services, clock(), name="scorp", ruleset="scorpion")
    heading = format_subject(template="scorpion", game_name="scorp", power="FRANCE", phase="S1901M",
                             purpose="orders")
    intake.store(services.sessions, order_mail(player_address("FRANCE"), "my orders", f"{heading}\nA Par-Bur\n"),
                 source="smtp", now=clock())
    assert [outcome for _, outcome in intake.process_pending(services, clock())] == ["accepted"]
    [reply] = [row for row in outbox(services) if row.kind == "confirmation"]
    body = " ".join(parsed(reply).get_body(("plain",)).get_content().split())
    assert "Not an order" not in body
    assert (f"line 1: {heading} ignored: Read with the subject as the game, power and turn line (house rules "
            "003 [10]).") in body
    assert "line 2" not in body  # read as written: the order on file, not a line to check
    assert "ORDERS ON FILE FOR FRANCE (version 1) A Paris -> Burgundy (A PAR - BUR)" in body


def test_an_unknown_sender_is_answered_at_most_once_a_day(world, clock) -> None:
    for _ in range(3):
        intake.store(world.sessions, order_mail("stranger@elsewhere.test", "hello", "hi"), source="smtp",
                     now=clock())
    assert [o for _, o in intake.process_pending(world, clock())] == ["rejected", "ignored", "ignored"]
    clock.advance(days=1, seconds=1)
    intake.store(world.sessions, order_mail("stranger@elsewhere.test", "hello", "again"), source="smtp",
                 now=clock())
    assert [o for _, o in intake.process_pending(world, clock())] == ["rejected"]


def test_a_player_of_a_finished_game_is_told_it_is_over(world, clock) -> None:
    with transaction(world.sessions) as session:
        session.execute(update(Game).values(status="finished"))
    intake.store(world.sessions, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR H"), source="smtp",
                 now=clock())
    assert intake.process_pending(world, clock())[0][1] == "rejected"
    [reply] = outbox(world)
    assert "is over" in parsed(reply).get_body(("plain",)).get_content()


@pytest.mark.parametrize("headers", [
    b"Message-ID: =?utf-8?q?<a=0D=0AX-Evil:_1@x>?=\r\n",
    b"Message-ID: <has space@x>\r\n",
])
def test_a_broken_message_id_is_not_echoed_back(world, clock, headers) -> None:
    raw = (b"From: " + player_address("FRANCE").encode() + b"\r\nSubject: " + subject("FRANCE").encode()
           + b"\r\n" + headers + b"\r\nA PAR H\r\n")
    intake.store(world.sessions, raw, source="smtp", now=clock())
    assert intake.process_pending(world, clock())[0][1] == "accepted"
    [reply] = outbox(world)
    assert parsed(reply)["In-Reply-To"] is None and b"X-Evil" not in reply.raw


def test_a_sender_that_is_no_plain_address_is_not_answered(world, clock) -> None:
    raw = b"From: " + b"a" * 400 + b"@x.test\r\nSubject: hello\r\n\r\nhi\r\n"
    intake.store(world.sessions, raw, source="smtp", now=clock())
    assert intake.process_pending(world, clock())[0][1] == "ignored"


def test_no_order_set_is_stored_for_a_phase_that_moved_on_meanwhile(world, clock) -> None:
    """An adjudication that commits while a set is being read: the set must not be filed under
    the phase just adjudicated (it would be confirmed and never used)."""
    import time

    stored = intake.store(world.sessions, order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - BUR"),
                          source="smtp", now=clock())
    locked = threading.Event()

    def adjudication() -> None:
        with transaction(world.sessions) as session:
            game = session.scalar(select(Game).with_for_update())
            locked.set()
            time.sleep(1.0)
            game.phase = "F1901M"

    worker = threading.Thread(target=adjudication)
    worker.start()
    locked.wait(5)
    outcome = intake.process_one(world, stored.id, clock())
    worker.join()
    with transaction(world.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id)).where(OrderSet.phase == "S1901M")) == 0
        status = session.get(InboundMessage, stored.id).status
    # PostgreSQL: the reader saw the old phase, waited for the lock and put the message back;
    # SQLite: writers queue, so it was read after the change and refused as the wrong turn
    assert (outcome, status) in ((None, "pending"), ("rejected", "done"))


def test_forged_mail_in_a_players_name_does_not_spend_the_players_own_refusals(world, clock) -> None:
    """Anyone can write France's address in From: forged mail with a bad subject in France's name
    gets at most PLAYER_REFUSALS_PER_HOUR refusals an hour, counted apart from those of mail that
    proves its sender. France's own mistaken mail, sent to her reply address, is still answered,
    up to its own limit."""
    france = player_address("FRANCE")
    forged = intake.PLAYER_REFUSALS_PER_HOUR + 2
    for n in range(forged):
        intake.store(world.sessions, order_mail(france, f"Orders for lepanto, take {n}", "A PAR - BUR"),
                     source="smtp", now=clock())
    outcomes = [o for _, o in intake.process_pending(world, clock())]
    assert outcomes == ["rejected"] * intake.PLAYER_REFUSALS_PER_HOUR + ["ignored"] * 2
    own = player_reply_address(world, "FRANCE")
    for n in range(intake.PLAYER_REFUSALS_PER_HOUR + 1):
        intake.store(world.sessions, order_mail(france, f"My lepanto orders, try {n}", "A PAR - BUR", to=own),
                     source="smtp", now=clock())
    outcomes = [o for _, o in intake.process_pending(world, clock())]
    assert outcomes == ["rejected"] * intake.PLAYER_REFUSALS_PER_HOUR + ["ignored"]
    assert [row.recipient for row in outbox(world)] == [france] * 2 * intake.PLAYER_REFUSALS_PER_HOUR


def test_forged_unreadable_mail_in_a_players_name_does_not_spend_the_players_own_refusals(world, clock) -> None:
    """The same for mail too deep to read (refused from a glance at its headers): forged copies in
    France's name do not silence France's own, sent to her reply address (RCPT TO)."""
    france = player_address("FRANCE")
    for n in range(intake.PLAYER_REFUSALS_PER_HOUR + 1):
        intake.store(world.sessions, nested_multipart(1000, france.encode(), b"lepanto %d" % n), source="smtp",
                     now=clock())
    outcomes = [o for _, o in intake.process_pending(world, clock())]
    assert outcomes == ["refused"] * intake.PLAYER_REFUSALS_PER_HOUR + ["ignored"]
    intake.store(world.sessions, nested_multipart(1000, france.encode(), b"lepanto mine"), source="smtp",
                 now=clock(), envelope_from=france, envelope_to=[player_reply_address(world, "FRANCE")])
    assert [o for _, o in intake.process_pending(world, clock())] == ["refused"]
    assert len(outbox(world)) == intake.PLAYER_REFUSALS_PER_HOUR + 1


def test_a_player_whose_autoresponder_loops_gets_a_few_refusals_an_hour(world, clock) -> None:
    """An out-of-office reply that marks itself nowhere (no header, a subject no mail program
    writes: "Out of office: Re: ..." is recognised), answering each of our refusals. (Its text is
    no command: a first line "away" or "absence" is the ABSENCE command, whose answers obey the
    limit on notices.)"""
    for _ in range(8):
        intake.store(world.sessions, order_mail(player_address("FRANCE"), "Away until Monday (was lepanto)",
                                                "Back on Monday."), source="smtp", now=clock())
    outcomes = [o for _, o in intake.process_pending(world, clock())]
    assert outcomes == ["rejected"] * intake.PLAYER_REFUSALS_PER_HOUR + ["ignored"] * 3


def test_a_command_an_autoresponder_repeats_is_answered_a_few_times_an_hour(world, clock) -> None:
    """A robot whose text starts with a command word ("away": ABSENCE, here without dates) is
    answered as a player who got the command wrong, but no more than the limit on notices allows."""
    for _ in range(NOTICES_PER_HOUR + 3):
        intake.store(world.sessions, order_mail(player_address("FRANCE"), "Away until Monday (was lepanto)", "away"),
                     source="smtp", now=clock())
    outcomes = [o for _, o in intake.process_pending(world, clock())]
    assert outcomes == ["command-not-understood"] * (NOTICES_PER_HOUR + 3)
    answers = [row for row in outbox(world) if row.recipient == player_address("FRANCE")]
    assert len(answers) == NOTICES_PER_HOUR


def test_a_message_one_thread_is_reading_is_left_to_it_and_never_parked(world, clock, monkeypatch) -> None:
    """The message is read outside any transaction, its row unlocked meanwhile: the process's other
    threads leave it to the thread reading it, and count no claim on it (three such claims once
    parked a good message as "stopped the processor 3 times")."""
    stored = intake.store(world.sessions, order_mail(player_address("ITALY"), subject("ITALY"), "A VEN H"),
                          source="smtp", now=clock())
    reading, release = threading.Event(), threading.Event()
    real_prepare = intake.prepare

    def slow_first(raw):
        if not reading.is_set():
            reading.set()
            release.wait(30)
        return real_prepare(raw)

    monkeypatch.setattr(intake, "prepare", slow_first)
    outcome: list[str | None] = []
    first = threading.Thread(target=lambda: outcome.append(intake.process_one(world, stored.id, clock())))
    first.start()
    try:
        assert reading.wait(30)
        others = [intake.process_one(world, stored.id, clock()) for _ in range(3)]
    finally:
        release.set()
        first.join(60)
    assert others == [None, None, None] and outcome == ["accepted"]
    with transaction(world.sessions) as session:
        row = session.get(InboundMessage, stored.id)
        assert (row.status, row.attempts) == ("done", 1)
