"""late_with_proof (000 VII(1), 001 IV(1); MATRIX 2.8): a late set is proven sent in time by its
Date header and its earliest Received header (the last in the message), both before the deadline."""

from __future__ import annotations

import email
import email.policy
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import GameView, Hold, Reject, decide
from gmserver.rules.late_proof import earliest_received, sent_before
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
        "are both before the deadline (2026-11-24 18:00 UTC)")


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
