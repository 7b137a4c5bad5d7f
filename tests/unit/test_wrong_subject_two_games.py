"""A player in two games whose subject names neither (or could name both) is given the subject
line of each game, each under its own profile's subject form (000 II(2) b, 003 [10]), never one
game's subject for both."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports.replies import build_rejection
from gmserver.rules.envelope import parse_envelope
from gmserver.rules.intake import Accept, GameView, Reject, decide
from gmserver.rules.ruleset import load_ruleset
from tests.support.world import order_mail

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def _game(game_id: int, name: str, profile: str, players: dict) -> GameView:
    return GameView(id=game_id, name=name, ruleset=load_ruleset(profile), phase="S1901M",
                    deadline=NOW + timedelta(days=1), status="active", players=players)


LEPANTO = _game(1, "lepanto", "mhr", {"FRANCE": ("anna@p.test", None), "ITALY": ("ivo@p.test", None)})
TRAFALGAR = _game(2, "trafalgar", "standard", {"ENGLAND": ("anna@p.test", None), "FRANCE": ("fred@p.test", None)})


def _answer(decision: Reject) -> str:
    rejection = build_rejection(decision.reasons, decision.expected_subject, original_subject="my orders",
                                        original_date=NOW, subjects=decision.subjects)
    return Composer(TEMPLATES_DIR, gm_name="GM", gm_address="gm@gm.test").render(rejection.template, rejection)


def test_a_subject_naming_no_game_gets_the_subject_of_each_of_the_players_games() -> None:
    decision = decide(parse_envelope(order_mail("anna@p.test", "my orders", "A Par - Bur")), [LEPANTO, TRAFALGAR],
                      NOW)
    assert isinstance(decision, Reject)
    subjects = dict(decision.subjects)
    assert sorted(subjects) == ["lepanto", "trafalgar"]
    # each is the subject of the player's own power in that game, and each is accepted there
    for game, power in ((LEPANTO, "FRANCE"), (TRAFALGAR, "ENGLAND")):
        accepted = decide(parse_envelope(order_mail("anna@p.test", subjects[game.name], "A Par - Bur")),
                          [LEPANTO, TRAFALGAR], NOW)
        assert isinstance(accepted, Accept) and (accepted.game.name, accepted.power) == (game.name, power)
    body = _answer(decision)
    assert "The subject line of the game the message is for, one of these:" in body
    assert f"        lepanto: {subjects['lepanto']}\n        trafalgar: {subjects['trafalgar']}\n" in body
    assert "reply to this mail" in " ".join(body.split()).lower()


def test_a_player_in_one_game_gets_that_games_subject_alone() -> None:
    decision = decide(parse_envelope(order_mail("ivo@p.test", "my orders", "A Ven H")), [LEPANTO, TRAFALGAR], NOW)
    assert isinstance(decision, Reject) and decision.subjects == () and decision.expected_subject
    assert "A subject line like this one:" in _answer(decision)
