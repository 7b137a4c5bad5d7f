"""Real mail servers on 127.0.0.1: one private Dovecot per session, an SMTP relay per test. A
pytest plugin (tests/conftest.py loads it), so integration and end-to-end tests share the one
Dovecot.

Missing servers FAIL the tests (never skip them): CI must install them with
scripts/install-test-services.sh.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from gmserver.mail.imap import ImapMailbox, ImapSettings
from tests.support.dovecot import Dovecot, DovecotError, MailUser, dovecot_binary
from tests.support.smtp_relay import SmtpRelay

_user_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def dovecot() -> Iterator[Dovecot]:
    """A running Dovecot shared by the session. Tests that stop it must start it again."""
    if dovecot_binary() is None:
        pytest.fail(
            "Dovecot (dovecot-imapd, dovecot-lmtpd) is not installed; "
            "run scripts/install-test-services.sh first",
            pytrace=False,
        )
    try:
        server = Dovecot()
    except DovecotError as error:
        pytest.fail(f"{error}\n(see scripts/install-test-services.sh)", pytrace=False)
    try:
        server.start()
    except DovecotError as error:
        server.cleanup()
        pytest.fail(f"{error}\n(see scripts/install-test-services.sh)", pytrace=False)
    yield server
    server.cleanup()


@pytest.fixture
def mail_user(dovecot: Dovecot) -> MailUser:
    """A fresh mailbox for this test alone, so tests sharing the Dovecot do not interfere."""
    dovecot.start()  # no-op when running; a failed restart test may have left it stopped
    user = MailUser(f"user{next(_user_numbers)}@example.test", "secret")
    dovecot.add_user(user.address, user.password)
    return user


@pytest.fixture
def smtp_relay(dovecot: Dovecot) -> Iterator[SmtpRelay]:
    """An SMTP server that records each message and delivers it into Dovecot over LMTP."""
    dovecot.start()  # see mail_user
    with SmtpRelay(lmtp_port=dovecot.lmtp_port) as relay:
        yield relay


@pytest.fixture
def mailbox(dovecot: Dovecot, mail_user: MailUser) -> Iterator[ImapMailbox]:
    """The test user's INBOX through gmserver's own IMAP adapter, logged in."""
    settings = ImapSettings(host=dovecot.host, port=dovecot.imap_port, tls="none", user=mail_user.address,
                            password=mail_user.password, timeout=30)
    with ImapMailbox(settings) as box:
        yield box
