"""Alerts for the human GM: parked mail and undeliverable mail, each alerted
exactly once, however often the sweep runs; on SQLite and PostgreSQL."""

from __future__ import annotations

import email
import email.policy

import pytest
from sqlalchemy import select, update

from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.base.outbox import queue
from gmserver.services.features import alerts
from gmserver.services.features.alerts import ALERTS_PER_DAY, queue_alerts
from gmserver.services.inbox import runner as intake
from tests.support.world import GM, order_mail, services_for

pytestmark = pytest.mark.integration

ALERTS_TO = "referee@home.test"


def park(services, now, raw: bytes, error: str = "IndexError: list index out of range\n\nTraceback ...") -> int:
    """Store a message and park it, as a crash while processing it would (whatever the cause)."""
    stored = intake.store(services.sessions, raw, source="smtp", now=now)
    with transaction(services.sessions) as session:
        session.execute(update(InboundMessage).where(InboundMessage.id == stored.id)
                        .values(status="failed", error=error, processed_at=now))
    return stored.id


def alert_rows(services) -> list[OutboxMessage]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).where(OutboxMessage.kind == "alert")
                                    .order_by(OutboxMessage.id)))


def as_message(row: OutboxMessage) -> email.message.EmailMessage:
    return email.message_from_bytes(row.raw, policy=email.policy.default)


def test_a_parked_message_gets_exactly_one_alert(database_url, clock) -> None:
    services = services_for(database_url)
    parked = park(services, clock(), order_mail("france@players.test", "lepanto France S1901M", "A PAR-BUR"))
    assert queue_alerts(services, clock(), to=ALERTS_TO).parked == 1
    assert queue_alerts(services, clock.advance(minutes=1), to=ALERTS_TO).total == 0  # the sweep again
    [row] = alert_rows(services)
    assert (row.dedupe_key, row.recipient, row.status) == (f"alert:parked:{parked}", ALERTS_TO, "pending")
    message = as_message(row)
    assert str(message["Auto-Submitted"]) == "auto-generated" and message["From"].addresses[0].addr_spec == GM
    assert str(message["Subject"]) == f"gmserver: message {parked} from france@players.test parked"
    body = message.get_body(("plain",)).get_content()
    for expected in ("From:      france@players.test", "Subject:   lepanto France S1901M",
                     "Error:     IndexError: list index out of range", "gmserver inbox list --status failed",
                     f"gmserver inbox replay {parked}"):
        assert expected in body
    assert "Traceback" not in body


def test_a_message_parked_again_after_a_replay_is_not_alerted_twice(database_url, clock) -> None:
    services = services_for(database_url)
    parked = park(services, clock(), order_mail("x@players.test", "hello", "hi"))
    queue_alerts(services, clock(), to=ALERTS_TO)
    park(services, clock.advance(hours=1), order_mail("y@players.test", "other", "hi"))
    with transaction(services.sessions) as session:  # the GM replayed it and it failed again
        session.execute(update(InboundMessage).where(InboundMessage.id == parked).values(processed_at=clock()))
    assert queue_alerts(services, clock(), to=ALERTS_TO).parked == 1
    assert [row.dedupe_key for row in alert_rows(services)] == [f"alert:parked:{parked}",
                                                                f"alert:parked:{parked + 1}"]


def test_a_hostile_parked_message_is_shown_short_and_safe(database_url, clock) -> None:
    services = services_for(database_url)
    bomb = "\r\n ".join(" ".join(["=?utf-8?q?A?="] * 60) for _ in range(480))
    raw = (b"From: =?utf-8?q?Germany=0D=0ABcc=3A_evil=40x.test?= <g@players.test>\r\n"
           b"Subject: " + bomb.encode() + b"\r\nMessage-ID: <bomb@x.test>\r\n\r\nbody\r\n")
    parked = park(services, clock(), raw, error="RecursionError: maximum recursion depth exceeded")
    assert queue_alerts(services, clock(), to=ALERTS_TO).parked == 1
    [row] = alert_rows(services)
    message = as_message(row)
    assert "\n" not in str(message["Subject"]) and len(str(message["Subject"])) < 120
    assert message["Bcc"] is None
    body = message.get_body(("plain",)).get_content()
    subject_line = next(line for line in body.splitlines() if line.strip().startswith("Subject:"))
    assert len(subject_line) < 120 and subject_line.strip().startswith("Subject:   AAAA")
    assert "From:      Germany Bcc: evil@x.test <g@players.test>" in body  # the CR LF made harmless
    assert f"gmserver inbox replay {parked}" in body


def test_undeliverable_mail_gets_one_alert_and_a_failed_alert_none(database_url, clock) -> None:
    services = services_for(database_url)
    for key, kind, recipient in (("r1", "report", "gone@players.test"), ("a1", "alert", ALERTS_TO)):
        message = services.composer.compose(to=recipient, subject=f"subject {key}", body="x",
                                            auto_submitted="auto-generated", date=clock())
        with transaction(services.sessions) as session:
            queue(session, message, kind=kind, dedupe_key=key, now=clock())
    with transaction(services.sessions) as session:
        session.execute(update(OutboxMessage).values(status="failed", attempts=1,
                                                     last_error="relay refused gone@players.test: 550 no such user"))
        report_id = session.scalar(select(OutboxMessage.id).where(OutboxMessage.dedupe_key == "r1"))
    assert queue_alerts(services, clock(), to=ALERTS_TO).undeliverable == 1
    assert queue_alerts(services, clock(), to=ALERTS_TO).total == 0
    alert = next(row for row in alert_rows(services) if row.dedupe_key.startswith("alert:undeliverable:"))
    assert alert.dedupe_key == f"alert:undeliverable:{report_id}"
    body = as_message(alert).get_body(("plain",)).get_content()
    assert "A turn report to gone@players.test could not be delivered" in body
    assert "550 no such user" in body and f"gmserver outbox retry {report_id}" in body


def test_a_flood_of_parked_mail_is_alerted_at_most_a_day_s_worth_plus_a_summary(database_url, clock) -> None:
    services = services_for(database_url)
    for n in range(ALERTS_PER_DAY + 5):
        park(services, clock(), order_mail(f"s{n}@stranger.test", f"bad {n}", "x"))
    queued = queue_alerts(services, clock(), to=ALERTS_TO)
    assert (queued.parked, queued.summaries) == (ALERTS_PER_DAY, 1)
    assert queue_alerts(services, clock.advance(hours=1), to=ALERTS_TO).total == 0
    late = park(services, clock(), order_mail("late@stranger.test", "bad late", "x"))
    assert queue_alerts(services, clock(), to=ALERTS_TO).total == 0  # still over today's budget
    # a day later the budget is back; what was parked more than a day ago is not mailed any more
    queued = queue_alerts(services, clock.advance(hours=23, minutes=30), to=ALERTS_TO)
    assert (queued.parked, queued.summaries) == (1, 0)
    assert alert_rows(services)[-1].dedupe_key == f"alert:parked:{late}"
    assert len(alert_rows(services)) == ALERTS_PER_DAY + 2


def test_the_gms_own_alert_reaching_the_gm_address_is_ignored_not_read_as_orders(database_url, clock) -> None:
    services = services_for(database_url)
    park(services, clock(), order_mail("france@players.test", "lepanto France S1901M", "A PAR-BUR"))
    queue_alerts(services, clock(), to=GM)  # the default: the alert goes to the GM address itself
    [row] = alert_rows(services)
    stored = intake.store(services.sessions, row.raw, source="smtp", now=clock())
    assert intake.process_one(services, stored.id, clock()) == "ignored"
    assert len(alert_rows(services)) == 1
    with transaction(services.sessions) as session:
        assert session.scalar(select(OutboxMessage.id).where(OutboxMessage.kind != "alert")) is None


def test_outbox_list_describes_alerts() -> None:
    assert alerts.describe("alert:parked:12") == "inbound message 12 parked"
    assert alerts.describe("alert:undeliverable:7") == "outbox message 7 undeliverable"
    assert alerts.describe("alert:outage:relay:2026-11-22T12:00:00+0000") == \
        "the SMTP relay unreachable since 2026-11-22T12:00:00+0000"
