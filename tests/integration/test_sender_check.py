"""A "verified" game on a real database (SQLite and PostgreSQL): a spoof of a player's From is
refused and the real player told; each proof is accepted; replies carry the player's reply address."""

from __future__ import annotations

import email
import email.policy

import dkim
import pytest
from sqlalchemy import select, update

from gmserver.db.models import InboundMessage, OrderSet, OutboxMessage, Player
from gmserver.db.session import transaction
from gmserver.mail.dkim import offline_lookup
from gmserver.rules.subject import format_subject
from gmserver.services.base.context import SenderChecks
from gmserver.services.base.outbox import message_bytes
from gmserver.services.inbox import runner as intake
from gmserver.services.turn import turns
from tests.support.dkim import new_dkim_key
from tests.support.intake_rows import player_reply_address
from tests.support.world import GM, new_game, order_mail, player_address, services_for

pytestmark = pytest.mark.integration

FRANCE = player_address("FRANCE")
SUBJECT = format_subject(template="standard", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")

# The spoof: From the player, the attacker's Return-Path, every check failed
# at the receiving server (whose authserv-id the GM trusts).
SPOOF_HEADERS = {
    "Return-Path": "<evil@attacker.test>",
    "Authentication-Results": "mx.gm.test; dkim=none; spf=fail smtp.mailfrom=attacker.test; "
                              "dmarc=fail (p=reject) header.from=players.test",
}


@pytest.fixture
def world(make_world):
    return make_world(sender_checks=SenderChecks(trusted_authserv_ids=("mx.gm.test",), dkim_lookup=offline_lookup),
                      sender_check="verified")


def secret_of(services, power: str) -> str:
    with transaction(services.sessions) as session:
        return session.scalar(select(Player.secret).where(Player.power == power))


def deliver(services, clock, raw: bytes, *, envelope_to: list[str] | None = None) -> str:
    stored = intake.store(services.sessions, raw, source="smtp", now=clock())
    if envelope_to is not None:  # what the listener records of RCPT TO
        with transaction(services.sessions) as session:
            session.execute(update(InboundMessage).where(InboundMessage.id == stored.id)
                            .values(envelope_to=envelope_to))
    [(_, outcome)] = intake.process_pending(services, clock())
    return outcome


def order_sets(services) -> list[tuple[str, list[str]]]:
    with transaction(services.sessions) as session:
        return [(s.power, s.orders) for s in session.scalars(select(OrderSet).order_by(OrderSet.id))]


def outbox(services) -> list[tuple[OutboxMessage, email.message.EmailMessage]]:
    with transaction(services.sessions) as session:
        rows = list(session.scalars(select(OutboxMessage).order_by(OutboxMessage.id)))
    return [(row, email.message_from_bytes(message_bytes(row), policy=email.policy.default)) for row in rows]


def test_the_spoof_from_the_issue_is_refused_and_the_real_player_told(world, clock) -> None:
    spoof = order_mail(FRANCE, SUBJECT, "F BRE - ENG\nA PAR - PIC\n", headers=SPOOF_HEADERS)
    assert deliver(world, clock, spoof) == "unverified"
    assert order_sets(world) == []
    [(row, warning)] = outbox(world)
    secret = secret_of(world, "FRANCE")
    assert row.recipient == FRANCE and "attacker" not in str(warning["To"])
    assert warning["Reply-To"].addresses[0].addr_spec == player_reply_address(world, "FRANCE")
    body = warning.get_body(("plain",)).get_content()
    assert "was not accepted" in body and "dmarc=fail" in body and "mx.gm.test" in body
    # the player's own ways in: their reply address and password line; the password is never the address
    assert player_reply_address(world, "FRANCE") in body and f"Password: {secret}" in body
    assert f"gm+{secret}" not in str(warning["Reply-To"])
    with transaction(world.sessions) as session:
        inbound = session.scalar(select(InboundMessage))
        assert (inbound.outcome, inbound.power) == ("unverified", "FRANCE")


def test_the_same_spoof_in_a_from_game_is_taken_as_before(database_url, clock) -> None:
    """What "from" means, and the hole "verified" closes."""
    services = services_for(database_url)
    new_game(services, clock(), sender_check="from")
    spoof = order_mail(FRANCE, SUBJECT, "F BRE - ENG\n", headers=SPOOF_HEADERS)
    assert deliver(services, clock, spoof) == "accepted"
    assert order_sets(services) == [("FRANCE", ["F BRE - ENG"])]


def test_a_forger_flooding_does_not_flood_the_player(world, clock) -> None:
    outcomes = []
    for n in range(6):
        outcomes.append(deliver(world, clock, order_mail(FRANCE, SUBJECT, f"A PAR - PIC\nA MAR H\n{n}",
                                                         headers=SPOOF_HEADERS)))
        clock.advance(minutes=5)
    assert outcomes == ["unverified"] * 6 and order_sets(world) == []
    assert len(outbox(world)) == 1
    clock.advance(hours=1)
    deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - PIC\nlater", headers=SPOOF_HEADERS))
    assert len(outbox(world)) == 2


def test_a_reply_to_the_players_reply_address_is_accepted(world, clock) -> None:
    address = player_reply_address(world, "FRANCE")
    raw = order_mail(FRANCE, SUBJECT, "A PAR - BUR\n")
    raw = raw.replace(f"To: {GM}".encode(), f"To: Test GM <{address}>".encode())
    assert deliver(world, clock, raw) == "accepted"
    assert order_sets(world) == [("FRANCE", ["A PAR - BUR"])]
    [(row, confirmation)] = outbox(world)
    assert row.kind == "confirmation"
    assert confirmation["Reply-To"].addresses[0].addr_spec == address


def test_the_reply_address_in_rcpt_to_is_enough(world, clock) -> None:
    raw = order_mail(FRANCE, SUBJECT, "A PAR - BUR\n")  # To: the plain GM address
    assert deliver(world, clock, raw, envelope_to=[player_reply_address(world, "FRANCE")]) == "accepted"


def test_the_reply_address_in_delivered_to_is_enough(world, clock) -> None:
    raw = (f"Delivered-To: {player_reply_address(world, 'FRANCE')}\r\n".encode()
           + order_mail(FRANCE, SUBJECT, "A PAR - BUR\n"))
    assert deliver(world, clock, raw) == "accepted"


def test_another_players_reply_address_proves_nothing(world, clock) -> None:
    raw = order_mail(FRANCE, SUBJECT, "A PAR - BUR\n")
    assert deliver(world, clock, raw, envelope_to=[player_reply_address(world, "GERMANY")]) == "unverified"


def test_a_password_line_is_accepted_and_never_read_or_echoed(world, clock) -> None:
    secret = secret_of(world, "FRANCE")
    raw = order_mail(FRANCE, SUBJECT, f"A PAR - BUR\nPassword: {secret}\nF BRE - MAO\n")
    assert deliver(world, clock, raw) == "accepted"
    [(power, orders)] = order_sets(world)
    assert power == "FRANCE" and sorted(orders) == ["A PAR - BUR", "F BRE - MAO"]
    with transaction(world.sessions) as session:
        lines = session.scalar(select(OrderSet.lines))
    assert all(secret not in str(line) for line in lines)
    [(_, confirmation)] = outbox(world)
    assert secret not in confirmation.get_body(("plain",)).get_content()


def test_a_wrong_password_is_refused(world, clock) -> None:
    raw = order_mail(FRANCE, SUBJECT, "A PAR - BUR\nPassword: letmein\n")
    assert deliver(world, clock, raw) == "unverified"
    [(_, warning)] = outbox(world)
    assert "did not hold your password" in warning.get_body(("plain",)).get_content()


def test_a_trusted_dmarc_pass_is_accepted_and_an_untrusted_one_is_not(world, clock) -> None:
    passing = {"Authentication-Results": "mx.gm.test; dkim=pass header.d=players.test; "
                                         "dmarc=pass header.from=players.test"}
    assert deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - BUR\n", headers=passing)) == "accepted"
    untrusted = {"Authentication-Results": "mx.attacker.test; dmarc=pass header.from=players.test"}
    assert deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - PIC\n", headers=untrusted)) == "unverified"


def test_a_forged_pass_below_the_real_failing_header_is_not_believed(world, clock) -> None:
    forged = order_mail(FRANCE, SUBJECT, "A PAR - PIC\n", headers={
        "Authentication-Results": "mx.gm.test; dmarc=pass header.from=players.test"})
    # the receiving server prepends its own verdict above what the message brought
    raw = (b"Authentication-Results: mx.gm.test; dkim=none; spf=fail smtp.mailfrom=attacker.test; "
           b"dmarc=fail header.from=players.test\r\n" + forged)
    assert deliver(world, clock, raw) == "unverified"


@pytest.fixture(scope="module")
def dkim_key(tmp_path_factory) -> tuple[bytes, str]:
    return new_dkim_key(tmp_path_factory.mktemp("dkim"))


def test_a_dkim_signature_of_the_players_domain_is_checked_here(database_url, clock, dkim_key) -> None:
    private, record = dkim_key
    keys = {"sel._domainkey.players.test.": record, "sel._domainkey.attacker.test.": record}
    services = services_for(database_url, sender_checks=SenderChecks(
        dkim_lookup=lambda name, timeout=5: keys.get(name.decode() if isinstance(name, bytes) else name)))
    new_game(services, clock(), sender_check="verified")

    def signed(body: str, domain: str) -> bytes:
        # as a provider signs: what binds the mail to the GM and to now (tests/integration/test_sender_proof.py)
        message = order_mail(FRANCE, SUBJECT, body, date=clock())
        return dkim.sign(message, b"sel", domain.encode(), private,
                         include_headers=[b"from", b"to", b"subject", b"date"]) + message

    assert deliver(services, clock, signed("A PAR - BUR\n", "players.test")) == "accepted"
    assert deliver(services, clock, signed("A PAR - PIC\n", "attacker.test")) == "unverified"
    tampered = signed("A PAR - GAS\n", "players.test").replace(b"A PAR - GAS", b"A PAR - PIC")
    assert deliver(services, clock, tampered) == "unverified"
    assert order_sets(services) == [("FRANCE", ["A PAR - BUR"])]


def test_every_mail_to_a_player_carries_their_reply_address(world, clock) -> None:
    """Refusals to the player (here: a wrong subject) too: a plain Reply then proves the sender."""
    assert deliver(world, clock, order_mail(FRANCE, "lepanto", "A PAR - BUR\n")) == "rejected"
    [(row, refusal)] = outbox(world)
    assert row.kind == "rejection"
    assert refusal["Reply-To"].addresses[0].addr_spec == player_reply_address(world, "FRANCE")


def test_a_stranger_never_gets_a_reply_address(world, clock) -> None:
    assert deliver(world, clock, order_mail("evil@attacker.test", SUBJECT, "A PAR - BUR\n")) == "rejected"
    [(_, refusal)] = outbox(world)
    assert refusal["Reply-To"] is None


def test_reminders_and_reports_carry_each_players_own_reply_address(world, clock) -> None:
    # the reminders are sent in Spring 1901, the reports open Fall 1901: each carries its turn's address
    spring = {power: player_reply_address(world, power) for power in ("FRANCE", "GERMANY")}
    clock.advance(hours=47)
    assert turns.queue_reminders(world, clock()) == 7
    clock.advance(hours=2)
    turns.adjudicate_due(world, clock())
    mails = outbox(world)
    assert {row.kind for row, _ in mails} == {"reminder", "report"}
    fall = {power: player_reply_address(world, power) for power in ("FRANCE", "GERMANY")}
    for row, message in mails:
        power = row.recipient.split("@")[0].upper()
        if power in spring:
            address = (spring if row.kind == "reminder" else fall)[power]
            assert message["Reply-To"].addresses[0].addr_spec == address
            if row.kind == "reminder":  # a new message may go straight to the reply address
                assert address in message.get_body(("plain",)).get_content()
    assert len({str(message["Reply-To"]) for _, message in mails}) == 14


def test_a_second_from_line_cannot_borrow_a_pass(world, clock) -> None:
    """A server's pass (or a signature) vouches for one From; with two (RFC 5322 allows one),
    the strict address reading finds no sender at all: nothing is filed and nobody is answered."""
    raw = b"From: france@players.test\r\n" + order_mail("evil@players.test", SUBJECT, "A PAR - PIC\n", headers={
        "Authentication-Results": "mx.gm.test; dkim=pass header.d=players.test; dmarc=pass header.from=players.test"})
    assert deliver(world, clock, raw) == "ignored"
    assert order_sets(world) == [] and outbox(world) == []


def test_the_display_name_spoof_from_the_issue_is_refused_in_a_verified_game(world, clock) -> None:
    """`From: france@players.test <evil@attacker.test>` reads as France today; whatever
    intake makes of it, the attacker's own passing checks do not prove France sent it."""
    raw = order_mail("france@players.test <evil@attacker.test>", SUBJECT, "A PAR - PIC\n", headers={
        "Authentication-Results": "mx.gm.test; dkim=pass header.d=attacker.test; spf=pass "
                                  "smtp.mailfrom=attacker.test; dmarc=pass header.from=attacker.test"})
    # the strict address reading takes the angle-addr: the message is evil@attacker.test's, a
    # stranger's, answered (to its own sender) with a refusal that names no game and no secret
    assert deliver(world, clock, raw) == "rejected" and order_sets(world) == []
    [(row, refusal)] = outbox(world)
    assert row.recipient == "evil@attacker.test" and row.kind == "stranger-refusal"
    assert "is not registered as a player in any game run here" in " ".join(refusal.get_body(("plain",)).get_content().split())
    assert refusal["Reply-To"] is None


def test_a_player_without_a_secret_gets_one_when_first_warned(world, clock) -> None:
    """A game made before secrets existed and later switched to "verified" (by hand)."""
    with transaction(world.sessions) as session:
        session.execute(update(Player).where(Player.power == "FRANCE").values(secret=None))
    assert deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - PIC\n", headers=SPOOF_HEADERS)) == "unverified"
    secret = secret_of(world, "FRANCE")
    [(_, warning)] = outbox(world)
    assert secret and f"Password: {secret}" in warning.get_body(("plain",)).get_content()


def test_warnings_and_refusals_share_the_players_hourly_limit(world, clock) -> None:
    """A warning about an unproven message is a refusal too: once a player has had as many
    refusals as an hour allows, no warning is added on top (the fuzz run saw 6 in an hour)."""
    from gmserver.services.base.reply_limits import PLAYER_REFUSALS_PER_HOUR

    for _ in range(PLAYER_REFUSALS_PER_HOUR):
        assert deliver(world, clock, order_mail(FRANCE, "lepanto France F1999M", "A PAR H\n")) == "rejected"
    assert deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - PIC\n", headers=SPOOF_HEADERS)) == "unverified"
    assert len(outbox(world)) == PLAYER_REFUSALS_PER_HOUR
    clock.advance(hours=1, seconds=1)
    assert deliver(world, clock, order_mail(FRANCE, SUBJECT, "A PAR - PIC\n", headers=SPOOF_HEADERS)) == "unverified"
    assert len(outbox(world)) == PLAYER_REFUSALS_PER_HOUR + 1


def test_a_proxy_holder_proves_their_own_address_with_their_own_password_000_II_3(database_url, clock) -> None:
    """Proxies (proxy_policy) in a verified mhr game: England holds France's proxy (the GM's ruling,
    000 II(3)); England's own password proves England's mail for France (France's is not England's
    to know), and a spoof of England's address is still refused."""
    from gmserver.services.commands import gm_controls

    services = services_for(database_url, sender_checks=SenderChecks(trusted_authserv_ids=("mx.gm.test",),
                                                                     dkim_lookup=offline_lookup))
    new_game(services, clock(), ruleset="mhr", sender_check="verified")
    gm_controls.act(services, "lepanto", gm_controls.proxy_give, "FRANCE", "ENGLAND", now=clock())
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
    england = player_address("ENGLAND")
    spoof = order_mail(england, subject, "A PAR - BUR\n", headers=SPOOF_HEADERS)
    assert deliver(services, clock, spoof) == "unverified"
    raw = order_mail(england, subject, f"A PAR - BUR\nPassword: {secret_of(services, 'ENGLAND')}\n")
    assert deliver(services, clock, raw) == "accepted"
    assert order_sets(services) == [("FRANCE", ["A PAR - BUR"])]
