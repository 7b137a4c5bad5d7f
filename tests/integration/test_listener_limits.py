"""The built-in listener's connection cap and per-client rate, spoken to by real smtplib clients:
past them a client is answered 421 (RFC 5321 3.8: closing the channel, try again later) instead
of the greeting, and served again once it is under them."""

from __future__ import annotations

import smtplib
import time

import pytest

from gmserver.mail.listener import Listener
from tests.support.dovecot import free_port
from tests.support.world import GM, order_mail

pytestmark = pytest.mark.integration


def start(protocol: str = "smtp", **limits: int) -> tuple[Listener, list[bytes]]:
    stored: list[bytes] = []
    listener = Listener("127.0.0.1", free_port(), protocol, lambda raw, envelope: stored.append(raw),
                        accepted_recipients={GM}, **limits)
    listener.start()
    return listener, stored


def client(listener: Listener) -> smtplib.SMTP:
    kind = smtplib.LMTP if listener.protocol == "lmtp" else smtplib.SMTP
    return kind(listener.host, listener.port, timeout=10)


def refusal(listener: Listener) -> tuple[int, str]:
    with pytest.raises(smtplib.SMTPConnectError) as error:
        client(listener)
    return error.value.smtp_code, error.value.smtp_error.decode()


def served_again(listener: Listener, timeout: float = 20.0) -> smtplib.SMTP:
    """A connection, once the server has seen the earlier one close (it learns it a moment later)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return client(listener)
        except smtplib.SMTPConnectError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.parametrize("protocol", ["smtp", "lmtp"])
def test_past_the_connection_cap_a_client_is_answered_421_and_served_once_one_closes(protocol: str) -> None:
    listener, stored = start(protocol, max_connections=2)
    try:
        first, second = client(listener), client(listener)
        code, text = refusal(listener)
        assert code == 421 and "too many connections at the moment; try again later" in text
        second.quit()
        third = served_again(listener)
        assert third.sendmail("fr@players.test", [GM], order_mail("fr@players.test", "s", "A PAR H")) == {}
        third.quit()
        first.quit()
    finally:
        listener.stop()
    assert len(stored) == 1


def test_one_client_cannot_take_every_connection() -> None:
    listener, _ = start(max_connections=10, max_connections_per_client=2)
    try:
        held = [client(listener), client(listener)]
        code, text = refusal(listener)
        assert code == 421 and "from your address at once" in text
        for connection in held:
            connection.quit()
        served_again(listener).quit()
    finally:
        listener.stop()


def test_past_the_per_client_rate_a_client_is_answered_421() -> None:
    # the listener's own start-up check connects once, and counts: five new connections a minute
    # leave four for the test
    listener, stored = start(client_connections_per_minute=5)
    try:
        for n in range(4):
            connection = served_again(listener)
            connection.sendmail("fr@players.test", [GM], order_mail("fr@players.test", "s", f"A PAR H {n}"))
            connection.quit()
        code, text = refusal(listener)
    finally:
        listener.stop()
    assert code == 421 and "from your address this minute" in text
    assert len(stored) == 4
