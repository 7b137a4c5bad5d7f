"""late_with_proof (000 VII(1), 001 IV(1)): a late set is proven sent in time by its
Date header and its earliest Received header (the last in the message), both before the deadline."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import GameView, Hold, Reject, decide
from gmserver.rules.late_proof import earliest_received, received_by, sent_before, trusted_receipt
from gmserver.rules.ruleset import load_ruleset
from gmserver.rules.subject import format_subject
from tests.support.world import order_mail

DEADLINE = datetime(2026, 11, 24, 18, 0, tzinfo=timezone.utc)
RELAY = "Received: from mx.gm.test by gm.test; Tue, 24 Nov 2026 18:20:00 +0000\n"  # our own server: late


def message(date: str | None, *received: str):
    head = "".join(received) + (f"Date: {date}\n" if date else "") + "From: fr@players.test\nSubject: x\n\nA PAR H\n"
    return email.message_from_string(head, policy=email.policy.default)


@pytest.mark.parametrize(("msg", "proven"), [
    pytest.param(message("Tue, 24 Nov 2026 17:55:00 +0000", RELAY,
                         "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:02 +0000\n"), True,
                 id="Date and the sender's server both before 18:00"),
    pytest.param(message("Tue, 24 Nov 2026 18:55:00 +0100", RELAY,
                         "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:02 +0000\n"), True,
                 id="18:55 in Paris is 17:55 UTC"),
    pytest.param(message("Tue, 24 Nov 2026 17:55:00 +0000", RELAY,
                         "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 18:05:00 +0000\n"), False,
                 id="the sender's server got it after the deadline"),
    pytest.param(message("Tue, 24 Nov 2026 18:01:00 +0000",
                         "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:00 +0000\n"), False,
                 id="Date after the deadline"),
    pytest.param(message(None, "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:00 +0000\n"), False,
                 id="no Date header"),
    pytest.param(message("Tue, 24 Nov 2026 17:55:00 +0000"), False, id="no Received header"),
    pytest.param(message("Tue, 24 Nov 2026 17:55:00 +0000", "Received: from pc by smtp.players.test\n"), False,
                 id="a Received header without a time stamp"),
    pytest.param(message("yesterday", "Received: x; garbage\n"), False, id="unreadable dates"),
])
def test_proof_of_sending_000_VII_1(msg, proven: bool) -> None:
    assert (sent_before(msg, DEADLINE) is not None) is proven


def test_the_earliest_received_header_is_the_last() -> None:
    msg = message("Tue, 24 Nov 2026 17:55:00 +0000", RELAY,
                  "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:02 +0000\n")
    assert earliest_received(msg) == datetime(2026, 11, 24, 17, 55, 2, tzinfo=timezone.utc)
    assert sent_before(msg, DEADLINE) == (
        "its Date header (2026-11-24 17:55 UTC) and the first mail server's Received header (2026-11-24 17:55 UTC) "
        "are both before the deadline (2026-11-24 18:00 UTC); both are the sender's own evidence, since no mail "
        "server you trust ([inbound] trusted_receivers) received it before the deadline, and a sender can write "
        "either")


# -- in the intake decision ----------------------------------------------------------------------------

def _envelope(subject: str, sent: datetime, first_server: datetime):
    return parse_envelope(order_mail("fr@p.test", subject, "A PAR H", date=sent, headers={
        "Received": f"from pc by smtp.p.test; {format_datetime(first_server)}"}))


def _game(**overrides) -> GameView:
    ruleset = load_ruleset("scorpion").with_overrides(overrides)  # 003 [10]: orders_accepted_until = deadline
    return GameView(id=1, name="lepanto", ruleset=ruleset, phase="S1901M", deadline=DEADLINE, status="active",
                    players={"FRANCE": ("fr@p.test", None)})


def test_under_the_deadline_cut_off_a_proven_late_set_is_held_not_refused() -> None:
    """late_with_proof = gm_discretion with orders_accepted_until = deadline: a set received after
    the deadline with proof is held for the GM; without proof, or under `never`, refused."""
    subject = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="S1901M",
                             purpose="orders")
    late, sent = DEADLINE + timedelta(minutes=10), DEADLINE - timedelta(minutes=2)
    proven = _envelope(subject, sent, sent)
    decision = decide(proven, [_game(late_with_proof="gm_discretion")], late)
    assert isinstance(decision, Hold) and decision.option == "late_with_proof"
    assert decision.accept.phase == "S1901M" and "both before the deadline" in decision.reasons[0]
    assert isinstance(decide(proven, [_game()], late), Reject)  # 003 [10]: late_with_proof = never
    unproven = _envelope(subject, sent, DEADLINE + timedelta(minutes=1))
    assert isinstance(decide(unproven, [_game(late_with_proof="gm_discretion")], late), Reject)


def _mhr_game_after_spring() -> GameView:
    """An mhr game (000 VII(3): the cut-off is the adjudication) now at Fall 1901; Spring 1901 was
    due at DEADLINE."""
    return GameView(id=1, name="lepanto", ruleset=load_ruleset("mhr"), phase="F1901M",
                    deadline=DEADLINE + timedelta(days=2), status="active", players={"FRANCE": ("fr@p.test", None)},
                    previous=("S1901M", DEADLINE))


def test_000_VII_1_a_set_after_an_early_adjudication_is_not_said_to_be_after_the_deadline() -> None:
    """000 VII(1), VII(3): when the GM adjudicated Spring before its deadline, a Spring set that
    arrives between the two reached the GM after the adjudication, not "after the deadline"."""
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
    arrived = DEADLINE - timedelta(minutes=30)
    sent = arrived - timedelta(minutes=5)
    decision = decide(_envelope(subject, sent, sent), [_mhr_game_after_spring()], arrived)
    assert isinstance(decision, Hold)
    assert decision.reasons[0].startswith("It reached the GM after Spring 1901 Movement was adjudicated, but its "
                                          "Date header")


def test_000_VII_1_headers_dated_after_the_message_arrived_prove_nothing() -> None:
    """000 VII(1): a Date or Received time later than the moment the message reached the GM was
    not written when it was sent (a wrong clock or a forgery): it is no proof."""
    subject = format_subject(template="mhr", game_name="lepanto", power="FRANCE", phase="S1901M", purpose="orders")
    arrived = DEADLINE - timedelta(hours=8)
    later = DEADLINE - timedelta(minutes=5)  # before the deadline, but hours after the message arrived
    decision = decide(_envelope(subject, later, later), [_mhr_game_after_spring()], arrived)
    assert isinstance(decision, Reject)


# -- whose Received header is believed -------------------------------------------------------------

SENDERS_OWN = "Received: from pc by smtp.players.test; Tue, 24 Nov 2026 17:55:02 +0000\n"


def test_000_VII_1_a_received_header_below_the_trusted_servers_is_called_the_senders_own() -> None:
    """The bottom-most Received header can be written by the sender: when the GM's own server
    (trusted, topmost) got the message after the deadline, the GM is told the rest is the sender's word."""
    msg = message("Tue, 24 Nov 2026 17:55:00 +0000", RELAY, SENDERS_OWN)
    said = sent_before(msg, DEADLINE, trusted_receivers=("gm.test",))
    assert said is not None and "the sender's own evidence" in said and "a sender can write either" in said


def test_000_VII_1_the_trusted_servers_own_time_stamp_before_the_deadline_proves_it() -> None:
    """No Date header needed: the GM's own server says when the message reached it."""
    ours = "Received: from smtp.players.test (smtp.players.test [192.0.2.1]) by MX.GM.TEST. (Postfix) with ESMTPS " \
           "id 4Xy; Tue, 24 Nov 2026 17:58:00 +0000\n"
    said = sent_before(message(None, ours, SENDERS_OWN), DEADLINE, trusted_receivers=("mx.gm.test",))
    assert said == ("your mail server mx.gm.test received it at 2026-11-24 17:58 UTC, before the deadline "
                    "(2026-11-24 18:00 UTC), by its own Received header")
    assert sent_before(message(None, ours, SENDERS_OWN), DEADLINE) is None  # not configured: not believed


@pytest.mark.parametrize("received, expected", [
    pytest.param((RELAY, "Received: from pc by mx.gm.test; Tue, 24 Nov 2026 17:50:00 +0000\n"), None,
                 id="a header 'by' the GM's server below the topmost was written by the sender"),
    pytest.param(("Received: from x (helo by mx.gm.test) by evil.test; Tue, 24 Nov 2026 17:50:00 +0000\n",), None,
                 id="'by' inside a comment is the client's word"),
    pytest.param(("Received: from x by mx.gm.test\n",), None, id="no time stamp"),
])
def test_000_VII_1_only_the_topmost_received_header_of_a_trusted_server_counts(received, expected) -> None:
    assert trusted_receipt(message("Tue, 24 Nov 2026 17:55:00 +0000", *received), ("mx.gm.test",)) == expected


def test_received_by_reads_the_host_after_by() -> None:
    assert received_by("from a (b [1.2.3.4]) by MX.Example.ORG (Postfix) with ESMTP; Tue, 24 Nov 2026 1:00 +0000") \
        == "mx.example.org"
    assert received_by("from a by b") is None


def test_000_VII_1_the_intake_decision_believes_the_trusted_server_given() -> None:
    subject = format_subject(template="scorpion", game_name="lepanto", power="FRANCE", phase="S1901M",
                             purpose="orders")
    late = DEADLINE + timedelta(minutes=10)
    # no Date at all, only the GM's own server's stamp two minutes before the deadline
    raw = order_mail("fr@p.test", subject, "A PAR H", headers={
        "Received": f"from smtp.p.test by mx.gm.test; {format_datetime(DEADLINE - timedelta(minutes=2))}"})
    envelope, game = parse_envelope(raw), _game(late_with_proof="gm_discretion")
    assert isinstance(decide(envelope, [game], late), Reject)
    decision = decide(envelope, [game], late, trusted_receivers=("mx.gm.test",))
    assert isinstance(decision, Hold) and "your mail server mx.gm.test received it" in decision.reasons[0]
