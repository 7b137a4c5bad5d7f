"""A kick that arrives while its job runs is not lost: the job runs again at once.

APScheduler skips a run that falls due while the job's instance still runs and sets the next one
a whole interval later. Mail stored by the listener while the inbound job ran then waited for the
next tick (30 s by default): seen as a lost-looking message in
test_listener_envelope under the load of two test workers."""

from __future__ import annotations

import smtplib
import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from gmserver.config import Config, ListenerConfig
from gmserver.daemon import Daemon
from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.services.inbox import runner as intake
from tests.support.dovecot import free_port
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def _statuses(services) -> list[str]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(InboundMessage.status).order_by(InboundMessage.id)))


def test_mail_stored_while_the_inbound_job_runs_is_processed_right_after_not_at_the_next_tick(
        database_url, tmp_path) -> None:
    services = services_for(database_url)
    new_game(services, datetime.now(UTC))
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    maildir_path=str(tmp_path / "maildir"), sweep_interval_seconds=60)
    daemon = Daemon(config, services=services)
    # the inbound job's first run (at start) has found nothing to do, and is held before it ends
    # until the message is stored and kicked; the sweep, the safety net that would find it too,
    # is off so only the kick can bring it in
    running, release = threading.Event(), threading.Event()
    process_inbound = daemon._process_inbound

    def held_first_run() -> None:
        process_inbound()
        if not running.is_set():
            running.set()
            release.wait(20)

    daemon._process_inbound = held_first_run  # type: ignore[method-assign]
    daemon._sweep = lambda: None  # type: ignore[method-assign]
    daemon.start()
    try:
        assert running.wait(20), "the inbound job did not start"
        with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=10) as client:
            assert client.sendmail(player_address("GERMANY"), [GM],
                                   order_mail(player_address("GERMANY"), "lepanto Germany S1901M", "A BER - KIE\n")) == {}
        assert _statuses(services) == ["pending"]
        release.set()
        # well under the 60 s interval: the kick made while the job ran brings it in
        deadline = time.monotonic() + 15
        while _statuses(services) != ["done"] and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        release.set()
        daemon.stop()
    assert _statuses(services) == ["done"]


class NotingTransport:
    """A relay that keeps the Message-IDs it was handed and says when the first came."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.first = threading.Event()

    def send(self, sender: str, recipient: str, raw: bytes, *, message_id: str) -> str:
        self.sent.append(message_id)
        self.first.set()
        return "250 ok"

    def close(self) -> None:
        pass


def test_in_a_burst_a_confirmation_leaves_before_the_rest_of_the_burst_is_read(
        database_url, tmp_path, monkeypatch) -> None:
    """Each message processed kicks the outbox: the first confirmation reaches the relay while the
    burst is still being read. The second message's processing waits for it (20 s at most):
    if the outbox were kicked only when the whole batch is done, it would wait in vain."""
    services = services_for(database_url)
    new_game(services, datetime.now(UTC))
    config = Config(database_url=database_url, gm_address=GM, listener=ListenerConfig(port=free_port()),
                    sweep_interval_seconds=3600, outbox_interval_seconds=3600)
    transport = NotingTransport()
    daemon = Daemon(config, services=services, transport=transport)
    process_one, seen, waited = intake.process_one, [], []

    def second_waits_for_the_first_confirmation(services, inbound_id, now, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(inbound_id)
        if len(seen) == 2:
            waited.append(transport.first.wait(20))
        return process_one(services, inbound_id, now, **kwargs)

    daemon._sweep = lambda: None  # type: ignore[method-assign]  (only the inbound job reads the mail)
    release = threading.Event()
    process_inbound = daemon._process_inbound

    def held_until_all_stored() -> None:
        release.wait(20)
        process_inbound()

    daemon._process_inbound = held_until_all_stored  # type: ignore[method-assign]
    monkeypatch.setattr(intake, "process_one", second_waits_for_the_first_confirmation)
    daemon.start()
    try:
        with smtplib.SMTP("127.0.0.1", config.listener.port, timeout=10) as client:
            for power, order in (("GERMANY", "A BER - KIE"), ("FRANCE", "A PAR - BUR"), ("ITALY", "A VEN H")):
                sender = player_address(power)
                assert client.sendmail(sender, [GM], order_mail(sender, f"lepanto {power.title()} S1901M",
                                                                order + "\n")) == {}
        release.set()
        deadline = time.monotonic() + 30
        while _statuses(services) != ["done"] * 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _statuses(services) == ["done"] * 3
        assert waited == [True], "the first confirmation waited for the whole burst"
    finally:
        release.set()
        daemon.stop()
