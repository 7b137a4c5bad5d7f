"""Hostile and broken mail never crashes intake: every message ends accepted, rejected or ignored
(never parked as failed), and every reply queued is a well-formed message."""

from __future__ import annotations

import email
import email.policy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.services import intake
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

HOSTILE = {
    "empty": b"",
    "binary junk": bytes(range(256)) * 8,
    "headers only": b"From: france@players.test\r\nSubject: lepanto France S1901M\r\n",
    "no sender": b"Subject: lepanto France S1901M\r\n\r\nA PAR - BUR\r\n",
    "broken encoded words": b"From: =?utf-8?q?=E2=80?= <france@players.test>\r\nSubject: =?x-unknown?b?////?=\r\n\r\nhi\r\n",
    "undecodable body": b"From: france@players.test\r\nSubject: lepanto France S1901M\r\n"
                        b"Content-Type: text/plain; charset=x-nonesuch\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!\r\n",
    "broken multipart": b"From: france@players.test\r\nSubject: lepanto France S1901M\r\nMIME-Version: 1.0\r\n"
                        b"Content-Type: multipart/mixed; boundary=\"zz\"\r\n\r\n--zz\r\nContent-Type: text/html\r\n\r\n"
                        b"<p>A Par-Bur<p><script>x</script>\r\n--z",
    "huge subject": b"From: france@players.test\r\nSubject: " + b"lepanto " * 5000 + b"\r\n\r\nA PAR H\r\n",
    "many lines": b"From: france@players.test\r\nSubject: lepanto France S1901M\r\n\r\n" + b"A Par-Bur\r\n" * 20000,
    "from the GM itself": b"From: " + GM.encode() + b"\r\nSubject: hello\r\n\r\nhi\r\n",
    "nul bytes in headers": b"From: france@players.test\x00\r\nSubject: lepanto\x00 France S1901M\r\n\r\nA PAR H\r\n",
}


def process(services, clock, raw: bytes) -> str:
    stored = intake.store(services.sessions, raw, source="smtp", now=clock())
    return intake.process_one(services, stored.id, clock()) or "duplicate"


def replies_are_well_formed(services) -> None:
    with transaction(services.sessions) as session:
        for row in session.scalars(select(OutboxMessage)):
            message = email.message_from_bytes(row.raw, policy=email.policy.default)
            assert message["To"] and message["Message-ID"] and message["Auto-Submitted"]
            assert message.get_content()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_message(database_url, clock, name: str) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    assert process(services, clock, HOSTILE[name]) in ("accepted", "rejected", "ignored")
    replies_are_well_formed(services)


@pytest.fixture(scope="module")
def sqlite_world(tmp_path_factory):
    from datetime import datetime, timezone

    from gmserver.db.migrate import upgrade

    url = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'gm.db'}"
    upgrade(url)
    services = services_for(url)
    new_game(services, datetime(2026, 11, 22, 12, tzinfo=timezone.utc))
    return services


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=3000))
def test_any_bytes(sqlite_world, clock, raw: bytes) -> None:
    assert process(sqlite_world, clock, raw) in ("accepted", "rejected", "ignored", "duplicate")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(subject=st.text(max_size=300), body=st.text(max_size=2000))
def test_any_text_from_a_player(sqlite_world, clock, subject: str, body: str) -> None:
    subject = " ".join(subject.split())  # a header cannot hold line breaks
    raw = order_mail(player_address("FRANCE"), subject, body)
    assert process(sqlite_world, clock, raw) in ("accepted", "rejected", "ignored", "duplicate")
