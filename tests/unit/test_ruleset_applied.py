"""Tests for options marked applied that no other test proved: each sets a non-default value
(the profile's own) and fails when scripts/option_mutation.py forces the option to its default."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import Accept, GameView, Reject, decide
from gmserver.rules.ruleset import load_ruleset
from tests.support.world import order_mail

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def _game(profile: str) -> GameView:
    return GameView(id=1, name="lepanto", ruleset=load_ruleset(profile), phase="S1901M",
                    deadline=NOW + timedelta(days=1), status="active", players={"FRANCE": ("fr@p.test", None)})


def _decide(profile: str, subject: str):
    return decide(parse_envelope(order_mail("fr@p.test", subject, "A PAR H")), [_game(profile)], NOW)


def test_subject_required_fields_game_only_under_email_rules() -> None:
    """002 (email_rules) requires only the game's name in the subject: the sender's one power and
    the current turn are taken as meant, with no warning. The default also requires year, season
    and power."""
    accepted = _decide("email_rules", "lepanto")
    assert isinstance(accepted, Accept) and accepted.warnings == ()
    refused = _decide("standard", "lepanto")
    assert isinstance(refused, Reject) and "does not name the season" in " ".join(refused.reasons)


def test_subject_required_fields_version_under_mhr() -> None:
    """000 II(2) (mhr) requires the set's version number in the subject; the default does not."""
    refused = _decide("mhr", "lepanto France Spring 1901")
    assert isinstance(refused, Reject) and "version number" in " ".join(refused.reasons)
