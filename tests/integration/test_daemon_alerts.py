"""The daemon feeds its outage tracker and mails the GM: a relay down for 15 minutes (the alert
waits in the outbox and goes out when the relay is back), a database out of reach (the alert is
stored when it is back), parked mail found by the sweep. The daemon's jobs are called directly,
with the clock passed in; the relay is a real aiosmtpd server."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select, update

from gmserver.config import Config, SmtpRelayConfig
from gmserver.daemon import Daemon
from gmserver.db.models import InboundMessage, OutboxMessage
from gmserver.db.session import make_engine, make_session_factory, transaction
from gmserver.mail.outbound import SmtpTransport
from gmserver.services.base.context import Services
from gmserver.services.base.outbox import queue
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.smtp_relay import SmtpRelay
from tests.support.world import GM, order_mail, services_for

pytestmark = pytest.mark.integration

ALERTS_TO = "referee@home.test"


def daemon_for(database_url: str, clock, port: int) -> Daemon:
    relay = SmtpRelayConfig(host="127.0.0.1", port=port, timeout=5)
    config = Config(database_url=database_url, gm_address=GM, alert_address=ALERTS_TO, outbound_mode="smtp",
                    smtp=relay)
    return Daemon(config, services=services_for(database_url), transport=SmtpTransport(relay), clock=clock)


def outbox_rows(daemon: Daemon) -> list[OutboxMessage]:
    with transaction(daemon.services.sessions) as session:
        return list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_a_relay_down_for_15_minutes_is_alerted_once_and_the_alert_waits_for_it(database_url, clock,
                                                                                  caplog) -> None:
    port = free_port()
    daemon = daemon_for(database_url, clock, port)
    report = daemon.services.composer.compose(to="p@players.test", subject="report", body="x",
                                              auto_submitted="auto-generated", date=clock())
    with transaction(daemon.services.sessions) as session:
        queue(session, report, kind="report", dedupe_key="r", now=clock())
    caplog.set_level(logging.INFO)

    for minutes in (0, 1, 2, 4):  # attempts 1-4 (backoff 1, 2, 4 minutes), 7 minutes in all
        clock.advance(minutes=minutes)
        daemon._deliver()
    assert [row.kind for row in outbox_rows(daemon)] == ["report"]
    clock.advance(minutes=8)  # 15 minutes after the first failure: attempt 5 fails too
    daemon._deliver()
    report_row, alert = outbox_rows(daemon)
    assert (alert.kind, alert.recipient, alert.status, alert.attempts) == ("alert", ALERTS_TO, "pending", 0)
    assert alert.dedupe_key.startswith("alert:outage:relay:")
    [line] = [r for r in caplog.records if r.levelno == logging.ERROR and "out of reach since" in r.getMessage()]
    assert "waits in the outbox and is sent when the relay is back" in line.getMessage()

    clock.advance(minutes=30)  # still down: no second alert; the alert backs off with the mail
    daemon._deliver()
    assert len(outbox_rows(daemon)) == 2

    with SmtpRelay(port=port) as relay:
        clock.advance(minutes=32)
        daemon._deliver()
        delivered = relay.wait_for(2)
    assert sorted(m.rcpt_tos for m in delivered) == [("p@players.test",), (ALERTS_TO,)]
    alert_mail = next(m for m in delivered if m.rcpt_tos == (ALERTS_TO,))
    assert b"The SMTP relay could not be reached from 2026-11-22 12:00 UTC" in alert_mail.raw
    assert {row.status for row in outbox_rows(daemon)} == {"sent"}
    assert any("reachable again" in r.getMessage() for r in caplog.records)


def test_a_database_out_of_reach_is_alerted_when_it_is_back(database_url, clock, caplog) -> None:
    daemon = daemon_for(database_url, clock, free_port())
    working = daemon.services
    # a PostgreSQL server nobody listens for: connecting is refused, as when the database is down
    gone = Services(sessions=make_session_factory(make_engine(f"postgresql://postgres@127.0.0.1:{free_port()}/x")),
                    composer=working.composer, geography=working.geography)
    caplog.set_level(logging.INFO)
    sweep = daemon._watching_the_database(daemon._sweep)

    daemon.services = gone
    for minutes in (0, 5, 5, 4):  # 14 minutes
        clock.advance(minutes=minutes)
        sweep()
    assert not [r for r in caplog.records if "out of reach since" in r.getMessage()]
    clock.advance(minutes=2)  # 16 minutes
    sweep()
    [line] = [r.getMessage() for r in caplog.records if "out of reach since" in r.getMessage()]
    assert line.startswith("The database has been out of reach since") and "when the database is back" in line

    daemon.services = working
    clock.advance(minutes=3)
    sweep()
    sweep()
    [alert] = outbox_rows(daemon)
    assert alert.dedupe_key.startswith("alert:outage:database:") and alert.recipient == ALERTS_TO
    assert b"This alert was stored when the database was back" in alert.raw


def test_the_sweep_alerts_each_parked_message_once(database_url, clock) -> None:
    daemon = daemon_for(database_url, clock, free_port())
    stored = intake.store(daemon.services.sessions, order_mail("x@players.test", "hello", "hi"), source="smtp",
                          now=clock())
    with transaction(daemon.services.sessions) as session:
        session.execute(update(InboundMessage).where(InboundMessage.id == stored.id)
                        .values(status="failed", error="ValueError: boom", processed_at=clock()))
    daemon._sweep()
    daemon._sweep()
    assert [(row.kind, row.dedupe_key) for row in outbox_rows(daemon)] == [("alert", f"alert:parked:{stored.id}")]
