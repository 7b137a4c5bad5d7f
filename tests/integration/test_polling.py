"""poll_once against a real Dovecot and a real database (SQLite and PostgreSQL): bounded batches,
each stored, processed and marked \\Seen before the next; the receipt time is the INTERNALDATE."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import func, select

from gmserver.db.models import Game, InboundMessage, OrderSet, OutboxMessage
from gmserver.db.session import transaction
from gmserver.mail.imap import ImapMailbox
from gmserver.rules.limits import MAX_MESSAGE_BYTES
from gmserver.rules.subject import format_subject
from gmserver.services.inbox import polling
from gmserver.services.inbox import runner as intake
from gmserver.services.inbox.polling import poll_once
from tests.support.dovecot import append_all, seen
from tests.support.intake_rows import without_headers
from tests.support.world import new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

MiB = 1024 * 1024


def subject(power: str, phase: str = "S1901M") -> str:
    return format_subject(template="standard", game_name="lepanto", power=power, phase=phase, purpose="orders")


def stranger_mail(number: int, padding: int = 0) -> bytes:
    body = "".join("y" * 76 + "\n" for _ in range(padding // 77))
    return order_mail(f"stranger{number}@elsewhere.test", f"hello {number}", f"Message {number}\n{body}",
                      message_id=f"<stranger.{number}@elsewhere.test>")


def stored(services) -> list[InboundMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(InboundMessage).order_by(InboundMessage.id)))


@pytest.fixture
def services(database_url):
    return services_for(database_url)




class Batches:
    """Wraps fetch_unseen to record the UIDs of each batch it hands out."""

    def __init__(self, mailbox: ImapMailbox, monkeypatch: pytest.MonkeyPatch) -> None:
        self.uids: list[list[int]] = []
        self.calls: list[dict] = []
        real = mailbox.fetch_unseen

        def fetch_unseen(*args, **kwargs):
            self.calls.append(kwargs)
            batch = real(*args, **kwargs)
            if batch:
                self.uids.append([m.uid for m in batch])
            return batch

        monkeypatch.setattr(mailbox, "fetch_unseen", fetch_unseen)

    @property
    def sizes(self) -> list[int]:
        return [len(batch) for batch in self.uids]


# -- batches --------------------------------------------------------------------------------


def test_a_flood_is_taken_in_batches_each_message_stored_once_and_marked_seen(
    dovecot, mail_user, mailbox, services, clock, monkeypatch
) -> None:
    uids = append_all(dovecot, mail_user, [stranger_mail(i) for i in range(120)])
    batches = Batches(mailbox, monkeypatch)

    report = poll_once(services, mailbox, clock, batch_messages=50)

    assert batches.sizes == [50, 50, 20]
    assert [uid for batch in batches.uids for uid in batch] == uids
    assert all(call["limit"] == 50 for call in batches.calls)
    assert report == polling.PollReport(fetched=120, new=120, processed=120)
    rows = stored(services)
    assert sorted(row.uid for row in rows) == uids  # each once
    assert {row.status for row in rows} == {"done"}
    assert all(seen(dovecot, mail_user).values())
    assert poll_once(services, mailbox, clock) == polling.PollReport(0, 0, 0)


def test_the_default_batch_is_fifty_messages(dovecot, mail_user, mailbox, services, clock, monkeypatch) -> None:
    append_all(dovecot, mail_user, [stranger_mail(i) for i in range(51)])
    batches = Batches(mailbox, monkeypatch)

    assert poll_once(services, mailbox, clock).fetched == 51

    assert batches.sizes == [50, 1]
    # one bound on a message (mail.limits): a batch holds at most one message of the largest size
    assert all(call["max_bytes"] == MAX_MESSAGE_BYTES for call in batches.calls)


def test_a_byte_budget_bounds_each_batch(dovecot, mail_user, mailbox, services, clock, monkeypatch) -> None:
    uids = append_all(dovecot, mail_user, [stranger_mail(i, padding=300_000) for i in range(7)])
    batches = Batches(mailbox, monkeypatch)

    report = poll_once(services, mailbox, clock, batch_bytes=1_000_000)

    assert batches.sizes == [3, 3, 1]  # about 300 kB each
    assert report.fetched == report.new == 7
    assert sorted(row.uid for row in stored(services)) == uids
    assert all(seen(dovecot, mail_user).values())


def test_a_message_above_the_size_cap_is_fetched_alone_stored_and_answered(
    dovecot, mail_user, mailbox, services, clock, monkeypatch
) -> None:
    new_game(services, clock())
    attachment = base64.encodebytes(b"\x00" * (8 * MiB)).decode()  # about 10.8 MB as text
    big = order_mail(player_address("FRANCE"), subject("FRANCE"),
                     f"A PAR - BUR\nF BRE - MAO\nA MAR - SPA\n\n{attachment}", message_id="<big@players.test>")
    assert len(big) > 10 * MiB
    small = [order_mail(player_address(power), subject(power), "", message_id=f"<{power}@players.test>")
             for power in ("ENGLAND", "GERMANY")]
    uids = append_all(dovecot, mail_user, [small[0], big, small[1]])
    batches = Batches(mailbox, monkeypatch)

    # a 10 MB budget, below the message (the default budget, MAX_MESSAGE_BYTES, is the largest
    # message taken at all: one that size comes alone the same way)
    report = poll_once(services, mailbox, clock, batch_bytes=10 * MiB)

    assert batches.uids == [[uids[0]], [uids[1]], [uids[2]]]
    assert report.fetched == report.new == report.processed == 3
    [_england, france, _germany] = stored(services)
    assert (france.uid, france.power, france.status) == (uids[1], "FRANCE", "done")
    assert len(france.raw) == len(big) + big.count(b"\n") - big.count(b"\r\n")  # stored whole (CRLF)
    with transaction(services.sessions) as session:
        assert session.scalar(select(OrderSet.power).where(OrderSet.inbound_id == france.id)) == "FRANCE"
        assert session.scalar(select(OutboxMessage.recipient).where(OutboxMessage.dedupe_key.like(
            f"%:{france.id}"))) == player_address("FRANCE")
    assert all(seen(dovecot, mail_user).values())


# -- crashes and flags ----------------------------------------------------------------------


def test_a_crash_part_way_leaves_the_batches_done_marked_and_the_restart_carries_on(
    dovecot, mail_user, mailbox, services, clock, monkeypatch
) -> None:
    uids = append_all(dovecot, mail_user, [stranger_mail(i) for i in range(7)])
    real_store = intake.store

    def failing_store(sessions, raw, **kwargs):
        if kwargs["uid"] == uids[4]:
            raise MemoryError("the process died here")
        return real_store(sessions, raw, **kwargs)

    monkeypatch.setattr(polling, "store", failing_store)
    with pytest.raises(MemoryError):
        poll_once(services, mailbox, clock, batch_messages=3)

    assert seen(dovecot, mail_user) == {uid: uid in uids[:3] for uid in uids}
    assert sorted(row.uid for row in stored(services)) == uids[:4]  # the 4th stored, not marked
    monkeypatch.setattr(polling, "store", real_store)

    report = poll_once(services, mailbox, clock, batch_messages=3)

    assert (report.fetched, report.new) == (4, 3)  # the 4th again: stored once
    assert sorted(row.uid for row in stored(services)) == uids
    assert {row.status for row in stored(services)} == {"done"}
    assert all(seen(dovecot, mail_user).values())


def test_a_pass_ends_even_when_seen_does_not_stick(
    dovecot, mail_user, mailbox, services, clock, monkeypatch
) -> None:
    uids = append_all(dovecot, mail_user, [stranger_mail(i) for i in range(5)])
    monkeypatch.setattr(mailbox, "mark_seen", lambda *args, **kwargs: None)  # a server forgetting flags

    report = poll_once(services, mailbox, clock, batch_messages=2)

    assert report.fetched == 5
    assert sorted(row.uid for row in stored(services)) == uids
    assert poll_once(services, mailbox, clock, batch_messages=2) == polling.PollReport(5, 0, 0)  # next pass: again


def test_without_a_message_id_a_set_sent_again_is_filed_and_a_refetch_is_not(
    dovecot, mail_user, mailbox, services, clock, monkeypatch
) -> None:
    """A CON H, A CON - BUL, A CON H with no Message-ID nor Date, over real IMAP: three messages,
    the third the set on file; fetched again (\\Seen lost), the same UIDs are the same messages."""
    new_game(services, clock())
    raws = [without_headers(order_mail(player_address("TURKEY"), subject("TURKEY"), orders), b"Message-ID:")
            for orders in ("A CON H", "A CON - BUL", "A CON H")]
    uids = append_all(dovecot, mail_user, raws)
    monkeypatch.setattr(mailbox, "mark_seen", lambda *args, **kwargs: None)  # a server forgetting flags

    assert poll_once(services, mailbox, clock) == polling.PollReport(fetched=3, new=3, processed=3)
    assert [row.uid for row in stored(services)] == uids
    assert poll_once(services, mailbox, clock) == polling.PollReport(fetched=3, new=0, processed=0)
    with transaction(services.sessions) as session:
        latest = session.scalars(select(OrderSet).order_by(OrderSet.version.desc())).first()
        assert (latest.version, latest.orders) == (3, ["A CON H"])


def test_messages_stored_earlier_are_processed_when_nothing_is_fetched(mailbox, services, clock) -> None:
    intake.store(services.sessions, stranger_mail(1), source="smtp", now=clock())

    assert poll_once(services, mailbox, clock) == polling.PollReport(fetched=0, new=0, processed=1)


# -- the receipt time -----------------------------------------------------------------------


# Dovecot replaces an INTERNALDATE in the future with the time of the APPEND: the tests below put
# the clock in the past and every INTERNALDATE between it and the real time.


def test_received_at_is_the_internaldate_never_after_now(dovecot, mail_user, mailbox, services, clock) -> None:
    clock.now = datetime.now(UTC).replace(microsecond=0) - timedelta(days=1)
    earlier = (clock.now - timedelta(hours=2)).astimezone(timezone(timedelta(hours=3)))
    append_all(dovecot, mail_user, [stranger_mail(1)], when=earlier)
    # after the clock: the server's clock runs ahead of gmserver's
    append_all(dovecot, mail_user, [stranger_mail(2)], when=clock.now + timedelta(hours=2))

    poll_once(services, mailbox, clock)

    [first, second] = stored(services)
    assert first.received_at == clock.now - timedelta(hours=2)
    assert first.received_at.tzinfo == UTC
    assert second.received_at == clock.now


def test_orders_that_reached_the_mailbox_before_the_deadline_count_when_fetched_after_it(
    dovecot, mail_user, mailbox, services, clock
) -> None:
    clock.now = datetime.now(UTC).replace(microsecond=0) - timedelta(days=3)
    game_id = new_game(services, clock(), movement_hours=48)
    with transaction(services.sessions) as session:
        deadline = session.get(Game, game_id).deadline
    in_time = order_mail(player_address("FRANCE"), subject("FRANCE"), "A PAR - BUR\nF BRE - MAO\nA MAR - SPA\n")
    too_late = order_mail(player_address("ITALY"), subject("ITALY"), "A VEN H\nA ROM H\nF NAP H\n")
    append_all(dovecot, mail_user, [in_time], when=deadline - timedelta(minutes=1))
    append_all(dovecot, mail_user, [too_late], when=deadline + timedelta(minutes=1))
    clock.now = deadline + timedelta(minutes=5)  # gmserver was down over the deadline

    poll_once(services, mailbox, clock)

    [france, italy] = stored(services)
    assert (france.power, france.outcome, france.received_at) == ("FRANCE", "accepted", deadline - timedelta(minutes=1))
    assert (italy.power, italy.outcome, italy.received_at) == ("ITALY", "rejected", deadline + timedelta(minutes=1))
    with transaction(services.sessions) as session:
        assert session.scalar(select(func.count(OrderSet.id))) == 1
