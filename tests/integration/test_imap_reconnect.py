"""The daemon's IMAP watcher after an outage of the real Dovecot: it tries again within seconds
(gmserver.mail.imap.reconnect_delay), not after a wait that had grown to 40 s and more, and the
count starts again once the server answers, so mail sent as the server comes back is stored at
once."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from gmserver.config import Config, ImapConfig, ListenerConfig
from gmserver.daemon import Daemon
from gmserver.db.models import InboundMessage
from gmserver.db.session import transaction
from gmserver.mail.imap import RECONNECT_DELAYS, reconnect_delay
from tests.support.dovecot import Dovecot, MailUser, free_port
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration


def test_the_wait_between_tries_is_short_and_levels_off() -> None:
    assert [reconnect_delay(n) for n in range(1, 7)] == [1.0, 2.0, 3.0, 5.0, 5.0, 5.0]
    assert max(reconnect_delay(n) for n in range(1, 10_000)) == RECONNECT_DELAYS[-1] <= 5


def _stored(services) -> list[str]:
    with transaction(services.sessions) as session:
        return list(session.scalars(select(InboundMessage.raw)))


def _wait(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_after_an_imap_outage_new_mail_is_stored_at_the_next_short_try(
        dovecot: Dovecot, mail_user: MailUser, database_url: str, tmp_path) -> None:
    services = services_for(database_url)
    new_game(services, datetime.now(UTC))
    config = Config(database_url=database_url, gm_address=GM, inbound_mode="imap",
                    imap=ImapConfig(host=dovecot.host, port=dovecot.imap_port, tls="none", user=mail_user.address,
                                    password=mail_user.password),
                    listener=ListenerConfig(port=free_port()), maildir_path=str(tmp_path / "maildir"))
    daemon = Daemon(config, services=services)
    tries: list[int] = []  # the failures in a row at each wait the watcher asked for
    three_failed = threading.Event()

    def recorded(failures: int) -> float:
        tries.append(failures)
        if failures >= 3:
            three_failed.set()
        return reconnect_delay(failures)

    daemon.imap_backoff = recorded
    daemon.start()
    try:
        assert _wait(lambda: daemon._imap_mailbox is not None, 30)
        dovecot.stop()
        # three failed tries: the old wait after them was 40 s, then 80, 160, 300
        assert three_failed.wait(60), f"the watcher did not try again promptly: {tries}"
    finally:
        dovecot.start()
    dovecot.append(mail_user.address, order_mail(player_address("GERMANY"), "lepanto Germany S1901M",
                                                 "A BER - KIE\n", message_id="<after-outage@players.test>"))
    try:
        assert _wait(lambda: any(b"after-outage" in bytes(raw) for raw in _stored(services)), 60), tries
        # every wait was the short schedule's, counted from the outage's first failure
        assert tries == list(range(1, len(tries) + 1))
        failures_before = len(tries)
        # a second outage starts the count again from one
        dovecot.stop()
        assert _wait(lambda: len(tries) > failures_before, 60), tries
        assert tries[failures_before] == 1
    finally:
        dovecot.start()
        daemon.stop()
