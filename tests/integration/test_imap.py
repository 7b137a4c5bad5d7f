"""The IMAP inbound adapter and the SMTP->LMTP relay against a real Dovecot on 127.0.0.1."""

from __future__ import annotations

import smtplib
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest
from imapclient import IMAPClient

from gmserver.mail.imap import FetchedMessage, ImapMailbox, ImapSettings, MailboxError
from tests.support.dovecot import Dovecot, MailUser, free_port
from tests.support.smtp_relay import SmtpRelay

pytestmark = pytest.mark.integration

SEEN = b"\\Seen"


def mail(subject: str, sender: str = "player@example.test") -> bytes:
    return (
        f"From: {sender}\r\nTo: gm@example.test\r\nSubject: {subject}\r\n"
        f"Message-ID: <{subject.replace(' ', '.')}@example.test>\r\n\r\n"
        f"Orders for {subject}\r\n"
    ).encode()


@pytest.fixture
def settings(dovecot: Dovecot, mail_user: MailUser) -> ImapSettings:
    return ImapSettings(
        host=dovecot.host,
        port=dovecot.imap_port,
        tls="none",
        user=mail_user.address,
        password=mail_user.password,
        timeout=5,
    )


@pytest.fixture
def mailbox(settings: ImapSettings) -> Iterator[ImapMailbox]:
    with ImapMailbox(settings) as box:
        yield box


def flags_by_uid(dovecot: Dovecot, address: str) -> dict[int, tuple[bytes, ...]]:
    return {uid: flags for uid, flags, _ in dovecot.messages(address)}


def append_at(dovecot: Dovecot, user: MailUser, raw: bytes, when: datetime) -> int:
    """APPEND with an explicit INTERNALDATE (as a server sets it on delivery); the UID."""
    with IMAPClient(dovecot.host, dovecot.imap_port, ssl=False, timeout=10) as client:
        client.login(user.address, user.password)
        response = client.append("INBOX", raw, msg_time=when)
    return int(response.split(b"]")[0].split()[-1])


def sized(subject: str, size: int) -> bytes:
    """A message of exactly `size` bytes, in lines of 78 characters as real mail has."""
    head = mail(subject)
    body = b"".join(b"x" * 76 + b"\r\n" for _ in range((size - len(head)) // 78 + 1))
    return (head + body)[: size - 2] + b"\r\n"


def later(seconds: float, action: Callable[[], object]) -> threading.Timer:
    timer = threading.Timer(seconds, action)
    timer.start()
    return timer


# -- fetching and marking -------------------------------------------------------------------


def test_fetch_does_not_set_seen_and_mark_seen_does(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    uid = dovecot.append(mail_user.address, mail("spring 1901"))

    fetched = mailbox.fetch_unseen()

    [message] = fetched
    assert message == FetchedMessage(uid, mailbox.uidvalidity, mail("spring 1901"), message.received_at)
    assert message.received_at is not None
    assert message.received_at.tzinfo is UTC
    assert abs(message.received_at - datetime.now(UTC)) < timedelta(seconds=5)
    assert SEEN not in flags_by_uid(dovecot, mail_user.address)[uid]
    assert mailbox.fetch_unseen() == fetched  # not stored yet: offered again

    mailbox.mark_seen([uid], uidvalidity=fetched[0].uidvalidity)

    assert SEEN in flags_by_uid(dovecot, mail_user.address)[uid]
    assert mailbox.fetch_unseen() == []


def test_only_unseen_undeleted_messages_are_returned_lowest_uid_first(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    dovecot.append(mail_user.address, mail("read"), flags=(SEEN,))
    first = dovecot.append(mail_user.address, mail("new one"))
    dovecot.append(mail_user.address, mail("deleted"), flags=(b"\\Deleted",))
    second = dovecot.append(mail_user.address, mail("new two"))

    assert [m.uid for m in mailbox.fetch_unseen()] == [first, second]
    assert [m.uid for m in mailbox.fetch_unseen(limit=1)] == [first]
    assert [m.uid for m in mailbox.fetch_unseen(after_uid=first)] == [second]
    assert mailbox.fetch_unseen(after_uid=second) == []  # "UID n:*" also names the highest UID


def test_a_limit_of_n_fetches_at_most_n(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    uids = [dovecot.append(mail_user.address, mail(f"message {i}")) for i in range(7)]

    assert [m.uid for m in mailbox.fetch_unseen(limit=3)] == uids[:3]
    assert [m.uid for m in mailbox.fetch_unseen(limit=3, after_uid=uids[2])] == uids[3:6]
    assert [m.uid for m in mailbox.fetch_unseen(limit=3, after_uid=uids[5])] == uids[6:]


# -- the byte budget ------------------------------------------------------------------------


def test_a_byte_budget_fetches_the_leading_messages_that_fit(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    uids = [dovecot.append(mail_user.address, sized(f"size {i}", 100_000)) for i in range(5)]

    assert [m.uid for m in mailbox.fetch_unseen(max_bytes=300_000)] == uids[:3]
    assert [m.uid for m in mailbox.fetch_unseen(max_bytes=299_999)] == uids[:2]
    assert [m.uid for m in mailbox.fetch_unseen(limit=1, max_bytes=300_000)] == uids[:1]
    assert [len(m.raw) for m in mailbox.fetch_unseen(max_bytes=10**9)] == [100_000] * 5


def test_a_message_above_the_budget_is_fetched_alone_never_skipped(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    small = dovecot.append(mail_user.address, mail("small before"))
    big_raw = sized("big", 11 * 1024 * 1024)  # above the SMTP listener's 10 MiB
    big = dovecot.append(mail_user.address, big_raw)
    after = dovecot.append(mail_user.address, mail("small after"))
    budget = 10 * 1024 * 1024

    assert [m.uid for m in mailbox.fetch_unseen(max_bytes=budget)] == [small]
    [whole] = mailbox.fetch_unseen(max_bytes=budget, after_uid=small)
    assert (whole.uid, whole.raw) == (big, big_raw)
    assert [m.uid for m in mailbox.fetch_unseen(max_bytes=budget, after_uid=big)] == [after]


# -- INTERNALDATE ---------------------------------------------------------------------------


@pytest.mark.parametrize("local_zone", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_received_at_is_the_internaldate_in_aware_utc_whatever_the_local_zone(
    dovecot: Dovecot, mail_user: MailUser, settings: ImapSettings, local_zone: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # gmserver's own zone must not matter (IMAPClient's default converts to naive local time)
    monkeypatch.setenv("TZ", local_zone)
    time.tzset()
    try:
        winter = datetime(2026, 1, 15, 9, 30, 5, tzinfo=timezone(timedelta(hours=-5)))
        summer = datetime(2026, 7, 1, 23, 59, 59, tzinfo=timezone(timedelta(hours=5, minutes=30)))
        first = append_at(dovecot, mail_user, mail("winter"), winter)
        second = append_at(dovecot, mail_user, mail("summer"), summer)

        with ImapMailbox(settings) as mailbox:
            fetched = {m.uid: m.received_at for m in mailbox.fetch_unseen()}
    finally:
        monkeypatch.undo()
        time.tzset()

    assert fetched == {
        first: datetime(2026, 1, 15, 14, 30, 5, tzinfo=UTC),
        second: datetime(2026, 7, 1, 18, 29, 59, tzinfo=UTC),
    }
    assert all(value.tzinfo is UTC for value in fetched.values())


def test_mark_seen_refuses_uids_from_another_uidvalidity(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    uid = dovecot.append(mail_user.address, mail("stale"))

    with pytest.raises(MailboxError, match="UIDVALIDITY .* changed"):
        mailbox.mark_seen([uid], uidvalidity=mailbox.uidvalidity + 1)

    assert SEEN not in flags_by_uid(dovecot, mail_user.address)[uid]


# -- waiting for mail -----------------------------------------------------------------------


def test_wait_returns_at_once_when_unfetched_mail_is_waiting(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    dovecot.append(mail_user.address, mail("waiting"))
    start = time.monotonic()

    # "at once": well before the timeout, whatever the machine's load (it took 0.5 s at most)
    assert mailbox.wait_for_mail(timeout=60) is True
    assert time.monotonic() - start < 30


def test_idle_wakes_when_another_client_appends(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    assert mailbox.fetch_unseen() == []
    start = time.monotonic()
    timer = later(0.2, lambda: dovecot.append(mail_user.address, mail("while idle")))

    woke = mailbox.wait_for_mail(timeout=60)

    timer.join()
    elapsed = time.monotonic() - start
    assert woke is True
    # woken by the append, not by the timeout (Dovecot tells IDLE clients about 0.5 s after it)
    assert 0.2 <= elapsed < 30
    assert [m.raw for m in mailbox.fetch_unseen()] == [mail("while idle")]


def test_idle_times_out_without_new_mail_but_not_for_fetched_unseen_mail(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    dovecot.append(mail_user.address, mail("fetched, not yet stored"))
    assert len(mailbox.fetch_unseen()) == 1
    start = time.monotonic()

    assert mailbox.wait_for_mail(timeout=0.7) is False
    assert 0.6 <= time.monotonic() - start < 30  # it waited, and came back (a generous bound: loaded machines)


def test_polling_without_idle_sees_new_mail(
    dovecot: Dovecot, mail_user: MailUser, settings: ImapSettings
) -> None:
    with ImapMailbox(replace(settings, idle=False, poll_seconds=0.1)) as mailbox:
        assert mailbox.wait_for_mail(timeout=0.3) is False
        start = time.monotonic()
        timer = later(0.2, lambda: dovecot.append(mail_user.address, mail("polled")))

        woke = mailbox.wait_for_mail(timeout=60)

        timer.join()
        assert woke is True
        assert time.monotonic() - start < 30  # found by polling, well before the timeout
        assert [m.raw for m in mailbox.fetch_unseen()] == [mail("polled")]


# -- TLS ------------------------------------------------------------------------------------


@pytest.mark.parametrize("tls", ["ssl", "starttls"])
def test_tls_with_the_servers_self_signed_certificate(
    dovecot: Dovecot, mail_user: MailUser, settings: ImapSettings, tls: str
) -> None:
    port = dovecot.imaps_port if tls == "ssl" else dovecot.imap_port
    secure = replace(settings, tls=tls, port=port, ca_file=dovecot.cert_path)
    uid = dovecot.append(mail_user.address, mail(f"over {tls}"))

    with ImapMailbox(secure) as mailbox:
        assert [m.uid for m in mailbox.fetch_unseen()] == [uid]
        assert isinstance(mailbox._client.socket(), ssl.SSLSocket)  # really encrypted


@pytest.mark.parametrize("tls", ["ssl", "starttls"])
def test_tls_with_an_untrusted_certificate_is_a_readable_error(
    dovecot: Dovecot, settings: ImapSettings, tls: str
) -> None:
    port = dovecot.imaps_port if tls == "ssl" else dovecot.imap_port
    untrusted = replace(settings, tls=tls, port=port)  # system CAs only

    with pytest.raises(
        MailboxError,
        match=r"TLS failure with IMAP server 127\.0\.0\.1:\d+.*"
        r"CERTIFICATE_VERIFY_FAILED",
    ):
        ImapMailbox(untrusted).connect()


# -- errors ---------------------------------------------------------------------------------


def test_wrong_password_is_a_readable_error(settings: ImapSettings) -> None:
    wrong = replace(settings, password="not-the-password")
    start = time.monotonic()

    with pytest.raises(MailboxError) as caught:
        ImapMailbox(wrong).connect()

    assert str(caught.value) == (
        f"IMAP login failed for user {settings.user} at 127.0.0.1:{settings.port}: "
        "[AUTHENTICATIONFAILED] Authentication failed."
    )
    # Measured: Dovecot 2.3 answers a failed login after ~0.5 s even with
    # auth_failure_delay = 0 and no anvil penalty (seconds without them). The bound only says the
    # error comes back without retries; it is generous because the machine may be loaded.
    assert time.monotonic() - start < 15


def test_connection_refused_is_a_readable_error(settings: ImapSettings) -> None:
    nobody = replace(settings, port=free_port())

    with pytest.raises(
        MailboxError,
        match=r"cannot connect to IMAP server 127\.0\.0\.1:\d+: "
        r".*Connection refused",
    ):
        ImapMailbox(nobody).connect()


def test_missing_folder_is_a_readable_error(settings: ImapSettings) -> None:
    with pytest.raises(MailboxError, match=r"cannot open folder 'Orders' of user\d+@"):
        ImapMailbox(replace(settings, folder="Orders")).connect()


def test_invalid_tls_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="tls must be one of none, ssl, starttls"):
        ImapSettings(host="h", port=1, tls="tls", user="u", password="p")  # type: ignore[arg-type]


def test_password_is_not_in_repr(settings: ImapSettings) -> None:
    assert settings.password not in repr(settings)


# -- a server restart -----------------------------------------------------------------------


def test_reconnects_after_the_server_restarts(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    uidvalidity = mailbox.uidvalidity
    assert mailbox.fetch_unseen() == []
    # the server must drop the connection while the waiter is in IDLE: imapclient's idle()
    # returns once the server has answered "+ idling", so that is when the waiter is in it
    idling = threading.Event()
    client, start_idle = mailbox._client, mailbox._client.idle
    monkeypatch.setattr(client, "idle", lambda: (start_idle(), idling.set())[0])
    woke: list[bool] = []
    waiter = threading.Thread(target=lambda: woke.append(mailbox.wait_for_mail(timeout=10)))
    waiter.start()
    assert idling.wait(timeout=5)
    try:
        dovecot.stop()
        waiter.join(timeout=5)
        # The connection dropped under IDLE: "go and look", and the look reconnects.
        assert woke == [True]
        with pytest.raises(MailboxError, match="cannot connect to IMAP server"):
            mailbox.fetch_unseen()  # still down
    finally:
        dovecot.start()
    uid = dovecot.append(mail_user.address, mail("after restart"))

    assert [m.uid for m in mailbox.fetch_unseen()] == [uid]
    assert mailbox.uidvalidity == uidvalidity


def test_reconnects_when_the_connection_is_cut_between_calls(
    dovecot: Dovecot, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    mailbox.fetch_unseen()
    mailbox._client.socket().shutdown(socket.SHUT_RDWR)  # as a NAT timeout would
    uid = dovecot.append(mail_user.address, mail("after the cut"))

    assert [m.uid for m in mailbox.fetch_unseen()] == [uid]
    mailbox.mark_seen([uid])
    assert SEEN in flags_by_uid(dovecot, mail_user.address)[uid]


# -- the SMTP relay into Dovecot ------------------------------------------------------------


def test_relay_delivers_smtp_mail_into_the_imap_inbox(
    smtp_relay: SmtpRelay, mail_user: MailUser, mailbox: ImapMailbox
) -> None:
    with smtplib.SMTP(smtp_relay.host, smtp_relay.port, timeout=5) as client:
        client.sendmail("player@example.test", [mail_user.address], mail("relayed"))

    [recorded] = smtp_relay.messages
    assert (recorded.mail_from, recorded.rcpt_tos) == ("player@example.test", (mail_user.address,))
    assert recorded.raw == mail("relayed")
    [fetched] = mailbox.fetch_unseen()
    assert fetched.raw.endswith(mail("relayed"))  # after LMTP's Return-Path etc.
    assert f"Delivered-To: {mail_user.address}".encode() in fetched.raw


def test_relay_delivers_to_each_recipient(
    dovecot: Dovecot, smtp_relay: SmtpRelay, mail_user: MailUser
) -> None:
    other = "relay-other@example.test"
    dovecot.add_user(other, "secret")

    with smtplib.SMTP(smtp_relay.host, smtp_relay.port, timeout=5) as client:
        client.sendmail("gm@example.test", [mail_user.address, other], mail("to both"))

    for address in (mail_user.address, other):
        assert [raw.endswith(mail("to both")) for _, _, raw in dovecot.messages(address)] == [True]


def test_relay_refuses_an_unknown_recipient(smtp_relay: SmtpRelay) -> None:
    with (
        smtplib.SMTP(smtp_relay.host, smtp_relay.port, timeout=5) as client,
        pytest.raises(smtplib.SMTPRecipientsRefused) as caught,
    ):
        client.sendmail("player@example.test", ["nobody@example.test"], mail("lost"))

    code, text = caught.value.recipients["nobody@example.test"]
    assert code == 550 and b"User doesn't exist" in text
    assert smtp_relay.messages == []


def test_relay_with_auth_and_starttls(dovecot: Dovecot, mail_user: MailUser) -> None:
    with SmtpRelay(
        lmtp_port=dovecot.lmtp_port,
        auth=("gm-relay", "relay-pw"),
        tls_cert=dovecot.cert_path,
        tls_key=dovecot.key_path,
    ) as relay:
        with smtplib.SMTP(relay.host, relay.port, timeout=5) as client:
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                client.sendmail("gm@example.test", [mail_user.address], mail("no auth"))
            assert refused.value.smtp_code == 530
        with smtplib.SMTP(relay.host, relay.port, timeout=5) as client:
            client.starttls(context=dovecot.ssl_context())
            with pytest.raises(smtplib.SMTPAuthenticationError):
                client.login("gm-relay", "wrong")
            client.login("gm-relay", "relay-pw")
            client.sendmail("gm@example.test", [mail_user.address], mail("authenticated"))

        [recorded] = relay.wait_for(1)
    assert (recorded.authenticated_as, recorded.tls) == ("gm-relay", True)
    assert [
        raw.endswith(mail("authenticated")) for _, _, raw in dovecot.messages(mail_user.address)
    ] == [True]


def test_relay_without_lmtp_only_records(mail_user: MailUser) -> None:
    with SmtpRelay() as sink:
        with smtplib.SMTP(sink.host, sink.port, timeout=5) as client:
            client.sendmail("gm@example.test", ["anyone@example.test"], mail("recorded"))
        assert [m.raw for m in sink.messages] == [mail("recorded")]
