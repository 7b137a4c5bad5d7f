"""Hole 6: a refusal never names a game to someone who is not one of its players."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import GameView, Reject, decide
from gmserver.rules.ruleset import load_ruleset
from tests.support.world import order_mail

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
NAMES = ("lepanto", "secretgame", "hidden-alpha")


def game(game_id: int, name: str, players: dict[str, tuple[str, str | None]]) -> GameView:
    return GameView(id=game_id, name=name, ruleset=load_ruleset("standard"), phase="S1901M",
                    deadline=NOW + timedelta(days=1), status="active", players=players)


GAMES = [game(n + 1, name, {"FRANCE": (f"fr@{name}.test", None), "GERMANY": ("de@both.test", None)})
         for n, name in enumerate(NAMES)]


def refusal(sender: str, subject: str, games=GAMES) -> Reject:
    decision = decide(parse_envelope(order_mail(sender, subject, "A PAR H")), games, NOW)
    assert isinstance(decision, Reject)
    return decision


def said(decision: Reject) -> str:
    return " ".join((*decision.reasons, decision.expected_subject or "",
                     decision.game.name if decision.game else "")).lower()


@pytest.mark.parametrize("subject", [
    "lepanto secretgame hidden-alpha France S1901M",  # the reproducer
    "secretgame France S1901M",
    "hidden-alpha France S1901M",
    "my orders",
])
def test_a_stranger_hears_no_game_name(subject: str) -> None:
    decision = refusal("stranger@evil.test", subject)
    assert decision.stranger and decision.game is None and decision.expected_subject is None
    assert not any(name in said(decision).replace(subject.lower(), "") for name in NAMES)


def test_a_stranger_cannot_tell_a_real_game_from_a_made_up_one() -> None:
    real = refusal("stranger@evil.test", "secretgame France S1901M")
    made_up = refusal("stranger@evil.test", "nosuchgame France S1901M", games=[])
    assert real == made_up


def test_a_player_of_one_named_game_hears_only_its_name() -> None:
    decision = refusal("fr@secretgame.test", "lepanto secretgame France F1901M")
    assert "secretgame" in said(decision)
    assert "lepanto" not in said(decision) and "hidden-alpha" not in said(decision)


def test_a_player_of_several_named_games_hears_only_those() -> None:
    decision = refusal("de@both.test", "lepanto secretgame Germany S1901M", games=GAMES[:2])
    assert "lepanto" in said(decision) and "secretgame" in said(decision) and not decision.stranger
