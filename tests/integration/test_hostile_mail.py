"""Hostile and broken mail never crashes intake: every message ends accepted, rejected, refused
(too large to read) or ignored (never parked as failed), and every reply queued is a well-formed
message."""

from __future__ import annotations

import email
import email.policy
from datetime import UTC

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from gmserver.db.models import OutboxMessage
from gmserver.db.session import transaction
from gmserver.services.base.outgoing import MAX_REFERENCES
from gmserver.services.inbox import runner as intake
from tests.support.hostile import encoded_word_bomb, nested_multipart
from tests.support.intake_rows import outbox_rows, player_reply_address
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

# Mail that once broke intake: each was parked as failed (IndexError, ValueError, RecursionError)
# or took hundreds of MB to parse (the bomb); now each ends as given.
ONCE_BROKE_INTAKE = {
    "angle bracket never closed": (b"From: Germany <\r\nSubject: lepanto Germany S1901M\r\n\r\nA BER H\r\n",
                                   "ignored"),
    "guillemet for a bracket": ("From: Germany \u2039\r\nSubject: lepanto Germany S1901M\r\n\r\nA BER H\r\n"
                                .encode(), "ignored"),
    "encoded CR LF in the display name": (b"From: =?utf-8?q?Evil=0D=0ABcc:_x@y?= <germany@players.test>\r\n"
                                          b"Subject: lepanto Germany S1901M\r\n\r\nA BER H\r\n", "accepted"),
    "multipart nested 1,000 deep": (nested_multipart(1000), "refused"),
    "encoded-word bomb of 140 KB": (encoded_word_bomb(140_000), "refused"),
    # RecursionError in the address and Content-Type parsers, under every size bound: not a
    # plain address (no answer); a Content-Type nested too deep to parse (answered)
    "a thousand nested comments in From": (b"From: " + b"(" * 1000 + b"germany@players.test\r\n"
                                           b"Subject: lepanto Germany S1901M\r\n\r\nA BER H\r\n", "ignored"),
    "a thousand nested comments in Content-Type": (b"From: germany@players.test\r\nSubject: lepanto Germany S1901M"
                                                   b"\r\nContent-Type: text/plain " + b"(" * 1000
                                                   + b"\r\n\r\nA BER H\r\n", "refused"),
}

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
    **{name: raw for name, (raw, _) in ONCE_BROKE_INTAKE.items()},
}
# mail from the GM's own address is a GM command (gmserver.services.inbox.handlers), kept and answered;
# a player's mail that names no game and asks for nothing is answered with HELP; one whose first
# line is a sign-up command (JOIN, STANDBY, OBSERVE, LEAVE, UNOBSERVE, RECORD, LIST OPEN, TAKEOVER:
# docs/players.md) is answered whatever its subject
OUTCOMES = ("accepted", "rejected", "refused", "ignored", "command-held", "command-refused", "help-sent",
            "join-asked", "standby-asked", "observe-asked", "leave-asked", "unobserve-asked", "signup-refused",
            "record-sent", "list-open-sent", "takeover-not-offered")


def process(services, clock, raw: bytes) -> str:
    stored = intake.store(services.sessions, raw, source="smtp", now=clock())
    return intake.process_one(services, stored.id, clock()) or "duplicate"


def replies_are_well_formed(services) -> None:
    with transaction(services.sessions) as session:
        for row in session.scalars(select(OutboxMessage)):
            message = email.message_from_bytes(row.raw, policy=email.policy.default)
            assert message["To"] and message["Message-ID"] and message["Auto-Submitted"]
            assert message.get_body(("plain",)).get_content()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_message(database_url, clock, name: str) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    assert process(services, clock, HOSTILE[name]) in OUTCOMES
    replies_are_well_formed(services)


@pytest.mark.parametrize("name", sorted(ONCE_BROKE_INTAKE))
def test_hostile_headers_are_answered_not_parked(database_url, clock, name: str) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    raw, outcome = ONCE_BROKE_INTAKE[name]
    assert process(services, clock, raw) == outcome
    replies_are_well_formed(services)
    with transaction(services.sessions) as session:
        replies = [email.message_from_bytes(row.raw, policy=email.policy.default)
                   for row in session.scalars(select(OutboxMessage))]
    assert len(replies) == (outcome != "ignored")
    for reply in replies:
        assert reply["Bcc"] is None and reply["Cc"] is None and len(reply["To"].addresses) == 1


def test_a_message_too_large_to_read_is_answered_with_what_and_what_to_do(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    assert process(services, clock, encoded_word_bomb(280_000)) == "refused"
    with transaction(services.sessions) as session:
        (row,) = session.scalars(select(OutboxMessage))
        reply = email.message_from_bytes(row.raw, policy=email.policy.default)
    body = " ".join(reply.get_body(("plain",)).get_content().split())
    assert row.kind == "stranger-refusal" and row.recipient == "stranger@elsewhere.test"
    assert reply["In-Reply-To"] == "<bomb.280000@elsewhere.test>"
    assert "Its Subject header is 279," in body and "at most 65,536 bytes (64 KB)" in body
    assert "reply to this mail with your orders written in it as plain text" in body
    assert "new message" not in body  # a new message would lack the sender proof a reply carries


def test_refusals_of_unreadable_mail_share_the_per_address_limit(database_url, clock) -> None:
    """A stranger flooding bombs gets one answer a day, like any stranger."""
    services = services_for(database_url)
    new_game(services, clock())
    outcomes = [process(services, clock, encoded_word_bomb(140_000 + n)) for n in range(3)]
    outcomes.append(process(services, clock, order_mail("stranger@elsewhere.test", "hello", "hi")))
    assert outcomes == ["refused", "ignored", "ignored", "ignored"]


def test_unreadable_automated_mail_and_unreadable_senders_get_no_answer(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    bomb = encoded_word_bomb(140_000)
    automated = bomb.replace(b"To: ", b"Auto-Submitted: auto-replied\r\nTo: ", 1)
    forged = encoded_word_bomb(140_001, sender=b"france@players.test, evil@attacker.test")
    assert [process(services, clock, raw) for raw in (automated, forged)] == ["ignored", "ignored"]
    with transaction(services.sessions) as session:
        assert session.scalars(select(OutboxMessage)).all() == []


def test_a_player_s_unreadable_mail_is_answered_under_the_player_limit(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock())
    outcomes = [process(services, clock, nested_multipart(100 + n, sender=b"Germany <germany@players.test>"))
                for n in range(7)]
    assert outcomes == ["refused"] * 5 + ["ignored"] * 2


@pytest.fixture(scope="module")
def sqlite_world(tmp_path_factory):
    from datetime import datetime

    from gmserver.db.migrate import upgrade

    url = f"sqlite:///{tmp_path_factory.mktemp('hostile') / 'gm.db'}"
    upgrade(url)
    services = services_for(url)
    new_game(services, datetime(2026, 11, 22, 12, tzinfo=UTC))
    return services


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=3000))
def test_any_bytes(sqlite_world, clock, raw: bytes) -> None:
    assert process(sqlite_world, clock, raw) in (*OUTCOMES, "duplicate")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(subject=st.text(max_size=300), body=st.text(max_size=2000))
@example(subject="", body="LIST:OPEN")  # Hypothesis found it: a sign-up command, answered whatever the subject
def test_any_text_from_a_player(sqlite_world, clock, subject: str, body: str) -> None:
    subject = " ".join(subject.split())  # a header cannot hold line breaks
    raw = order_mail(player_address("FRANCE"), subject, body)
    assert process(sqlite_world, clock, raw) in (*OUTCOMES, "duplicate")


def test_a_hostile_references_header_is_not_echoed(database_url, clock) -> None:
    """RFC 5322 3.6.4 asks a reply to carry its parent's References: only well-formed message ids
    are kept, and only the last outgoing.MAX_REFERENCES of them, whatever the incoming header holds."""
    services = services_for(database_url)
    new_game(services, clock())
    junk = " ".join([f"<id{n}@players.test>" for n in range(500)] + ["not-an-id", "<a b@c>", "Bcc:x@y"])
    raw = order_mail(player_address("FRANCE"), "lepanto France S1901M", "A PAR - BUR",
                     headers={"References": junk})
    assert process(services, clock, raw) == "accepted"
    with transaction(services.sessions) as session:
        reply = email.message_from_bytes(session.scalars(select(OutboxMessage)).one().raw, policy=email.policy.default)
    references = str(reply["References"]).split()
    assert len(references) == MAX_REFERENCES + 1  # the kept ids, then the message replied to
    assert references[:MAX_REFERENCES] == [f"<id{n}@players.test>" for n in range(500 - MAX_REFERENCES, 500)]


def test_the_orders_unchanged_reply_is_threaded_and_addressed_as_every_reply(database_url, clock) -> None:
    """A message with no order lines keeps the set on file and is answered "orders unchanged": that
    answer keeps only the last well-formed References, as every reply does, and in a verified game
    its Reply-To is the player's own reply address of this turn (a plain reply to it proves its
    sender), as the confirmation's is. It had its own copy of the threading, which echoed the whole header, and no
    Reply-To."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="verified")
    to = player_reply_address(services, "FRANCE")
    assert process(services, clock, order_mail(player_address("FRANCE"), "lepanto France S1901M", "A PAR - BUR",
                                               to=to)) == "accepted"
    junk = " ".join([f"<id{n}@players.test>" for n in range(500)] + ["not-an-id", "Bcc:x@y"])
    assert process(services, clock, order_mail(player_address("FRANCE"), "lepanto France S1901M",
                                               "I am away until Monday.", to=to,
                                               headers={"References": junk})) == "unchanged"
    [unchanged] = [row for row in outbox_rows(services) if row.kind == "orders-unchanged"]
    reply = email.message_from_bytes(unchanged.raw, policy=email.policy.default)
    references = str(reply["References"]).split()
    assert len(references) == MAX_REFERENCES + 1
    assert references[:MAX_REFERENCES] == [f"<id{n}@players.test>" for n in range(500 - MAX_REFERENCES, 500)]
    assert reply["Reply-To"].addresses[0].addr_spec == to
