"""The words of the answers to requests by mail (gmserver.reports.requests), rendered
through templates/player/request_answer.txt.j2. Expected text is the standard opening's and the
seeds', written by hand."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from gmserver import engine
from gmserver.mail.compose import Composer
from gmserver.paths import TEMPLATES_DIR
from gmserver.reports import requests as answers
from gmserver.rules.briefing import civil_disorder_rule, key_points
from gmserver.rules.order import Order
from gmserver.rules.position import OrderOutcome, Position
from gmserver.rules.ruleset import load_ruleset

DEADLINE = datetime(2026, 11, 28, 18, 0, tzinfo=timezone.utc)


@pytest.fixture(scope="module")
def geo():
    return engine.map_info()


def rendered(answer: answers.Answer) -> str:
    composer = Composer(TEMPLATES_DIR, gm_name="Garry Lord", gm_address="gm@lepanto.example")
    heading = {"original_subject": "lepanto", "original_date": None, "game_name": "lepanto",
               "phase": "Spring 1901 Movement", "deadline": None, "more_text": False}
    text = composer.render(answer.template, {"title": answer.title, "sections": answer.sections, **heading})
    return " ".join(text.split())


def test_status_says_who_ordered_and_the_deadline_in_the_games_zone() -> None:
    answer = answers.build_status(
        game_name="lepanto", phase="F1902R", deadline=DEADLINE, timezone="Europe/Moscow", paused=False,
        to_order=("AUSTRIA", "TURKEY"), ordered=("TURKEY",),
        player=answers.PlayerState("AUSTRIA", missed_in_a_row=2, missed_turns=3, civil_disorder=True))
    text = rendered(answer)
    assert "Phase: Fall 1902 Retreats (F1902R)" in text
    assert "Deadline: Saturday 28 November 2026, 21:00 MSK (Europe/Moscow) = Saturday 28 November 2026, 18:00 UTC" \
        in text
    assert "Orders received from: Turkey. Orders awaited from: Austria." in text
    assert "Your power is in civil disorder" in text and "You missed the last 2 turns in a row." in text


def test_status_tells_the_player_the_house_rule_on_missed_turns() -> None:
    """003 [13]: a power that misses two turns in a row is put in civil disorder."""

    rule = civil_disorder_rule(load_ruleset("scorpion"))
    answer = answers.build_status(game_name="lepanto", phase="S1901M", deadline=DEADLINE, timezone="UTC",
                                  paused=False, to_order=("FRANCE",), ordered=(),
                                  player=answers.PlayerState("FRANCE", 1, 1, False, rule))
    assert ("You missed the last 1 turn in a row. Turns missed in all: 1. A power that misses 2 turns in a row is "
            "put in civil disorder: its units hold (003 [13]).") in rendered(answer)


def test_a_paused_game_says_its_deadline_does_not_run() -> None:
    answer = answers.build_status(game_name="lepanto", phase="S1901M", deadline=None, timezone="UTC", paused=True,
                                  to_order=(), ordered=(), player=answers.PlayerState("FRANCE"))
    text = rendered(answer)
    assert "Deadline: none set" in text and "The game is paused by the GM" in text


@pytest.mark.parametrize(("asked", "phase", "named"), [
    ("F1901", "F1901M", True), ("F1901", "F1901R", True), ("f1901m", "F1901M", True),
    ("Fall 1901", "F1901M", True), ("autumn 1901", "F1901M", True), ("1901", "W1901A", True),
    ("F1901", "S1901M", False), ("Spring 1902", "S1901M", False), ("", "S1901M", False),
])
def test_a_phase_is_named_by_code_season_and_year_or_year(asked: str, phase: str, named: bool) -> None:
    assert answers.phase_matches(phase, asked) is named


def test_history_lists_orders_and_results_per_power(geo) -> None:
    phase = answers.PhaseHistory("S1901M", (
        OrderOutcome("FRANCE", Order.parse("A PAR - BUR"), ("bounce",)),
        OrderOutcome("GERMANY", Order.parse("A MUN - BUR"), ("bounce",)),
        OrderOutcome("GERMANY", Order.parse("A BER H"), (), defaulted=True),
    ))
    text = rendered(answers.build_history(game_name="lepanto", phases=[phase], asked="", geography=geo))
    assert "Spring 1901 Movement (S1901M) France: A Paris -> Burgundy (A PAR - BUR): bounced" in text
    assert "Germany: A Berlin holds (A BER H): no order received A Munich -> Burgundy (A MUN - BUR): bounced" \
        in text
    chatty = rendered(answers.build_history(game_name="lepanto", phases=[phase], asked="please", geography=geo))
    assert "The history of lepanto: 1 adjudicated phase" in chatty  # no year named: the whole history
    none = rendered(answers.build_history(game_name="lepanto", phases=[phase], asked="W1901", geography=geo))
    assert "lepanto has no adjudicated phase 'W1901'." in none and "Paris" not in none


def test_position_lists_units_centres_and_retreats(geo) -> None:
    position = Position("F1901R", units={"TURKEY": ("A BUL",)}, centers={"TURKEY": ("ANK", "BUL")},
                        dislodged={"RUSSIA": ("F SEV",)}, retreats={"F SEV": ("ARM",)})
    text = rendered(answers.build_position(game_name="lepanto", position=position, geography=geo))
    assert "The position in lepanto, Fall 1901 Retreats." in text
    assert "Turkey Units (1): A Bulgaria (BUL) Centres (2): Ankara (ANK), Bulgaria (BUL)" in text
    assert "Dislodged: F Sevastopol (SEV), may retreat to Armenia (ARM)" in text
    # the standard map's 34 centres, less Turkey's two
    assert "Neutral centres (32) Belgium (BEL), Berlin (BER)," in text and "Ankara (ANK), Belgium" not in text


def test_rules_are_said_in_words_with_the_clause_after_never_an_option_key() -> None:
    """003 [13]: two missed turns in a row put a power in civil disorder; 003 [4]: the fallback address."""
    ruleset = load_ruleset("scorpion")
    text = rendered(answers.build_rules(game_name="lepanto", title=ruleset.title, subject="LEPANTO - FRANCE - s1901",
                                        points=key_points(ruleset), not_done=["Press is not forwarded"]))
    assert "A power that misses 2 turns in a row is put in civil disorder: its units hold (003 [13])." in text
    assert "the fallback address is never published (003 [4])" in text
    assert "Your subject line for orders this turn LEPANTO - FRANCE - s1901" in text
    assert "nmr_limit_to_cd" not in text and "sender_policy" not in text


def test_own_orders_list_the_set_and_the_units_still_without_an_order(geo) -> None:
    answer = answers.build_own_orders(game_name="lepanto", power="FRANCE", phase="S1901M",
                                      orders=[Order.parse("A PAR - BUR")], versions=2,
                                      units=["A PAR", "A MAR", "F BRE"], geography=geo,
                                      if_unordered="units without an order hold")
    text = rendered(answer)
    assert "On file (2 sets received) A Paris -> Burgundy (A PAR - BUR)" in text
    assert "Without an order (units without an order hold) F Brest (BRE) A Marseilles (MAR)" in text


def test_which_game_gives_each_games_subject_line() -> None:
    text = rendered(answers.build_which_game({"vienna": "vienna Turkey S1901M", "lepanto": "lepanto Turkey S1901M"}))
    assert "Subject lines lepanto: lepanto Turkey S1901M vienna: vienna Turkey S1901M" in text
