"""A player's delay request, decided by the house rules (gmserver/rules/delays.py), by tables.

Expected deadlines are worked out by hand: 2026's DST change in Europe/London is 25 October
(BST -> GMT), so 18:00 BST on Saturday 24 October is 17:00 UTC and 18:00 GMT two days later,
Monday 26 October, is 18:00 UTC.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from gmserver.rules.briefing import key_points
from gmserver.rules.delays import DelayRequest, clause, decide_delay, delayed_deadline, game_year
from gmserver.rules.ruleset import load_ruleset

UTC = UTC
DEADLINE = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
BEFORE = DEADLINE - timedelta(hours=5)


def request(**kw) -> DelayRequest:
    return DelayRequest(**{"phase": "S1901M", "deadline": DEADLINE, "received": BEFORE, "used": 0, **kw})


@pytest.mark.parametrize(("profile", "clause_text"), [
    ("mhr", "house rules 000 VII(5)"),
    ("danivon", "house rules 001 IV(5)"),
    ("email_rules", "house rules 002 ORDERS 0"),
])
def test_000_VII_5_a_request_before_the_deadline_is_granted_at_once_by_delay_hours(profile, clause_text) -> None:
    decision = decide_delay(load_ruleset(profile), request())
    assert decision.outcome == "granted"
    assert decision.new_deadline == datetime(2026, 12, 3, 18, 0, tzinfo=UTC)  # 48 hours (delay_hours) later
    assert decision.said.startswith("Your request is granted: the deadline is delayed by 48 hours for every player "
                                    f"({clause_text}: delay requests received before the deadline")
    # max_auto_delays = 1: this grant is the warning 000 VII(5) asks for
    assert decision.last_automatic and "This was your last delay granted at once in 1901" in decision.said


def test_000_VII_5_delay_hours_is_the_profiles_value() -> None:
    ruleset = dataclasses.replace(load_ruleset("mhr"), delay_hours=24)
    decision = decide_delay(ruleset, request())
    assert decision.new_deadline == datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    assert "delayed by 24 hours" in decision.said


@pytest.mark.parametrize(("allowance", "used", "outcome", "last"), [
    (1, 0, "granted", True),
    (1, 1, "to_gm", False),  # beyond the allowance: the GM decides (000 VII(5) "after a warning")
    (2, 0, "granted", False),  # one left: no warning yet
    (2, 1, "granted", True),
    (2, 2, "to_gm", False),
    (0, 0, "to_gm", False),  # none at once: every request goes to the GM
])
def test_000_VII_5_max_auto_delays_per_player_per_game_year(allowance, used, outcome, last) -> None:
    ruleset = dataclasses.replace(load_ruleset("mhr"), max_auto_delays=allowance)
    decision = decide_delay(ruleset, request(used=used))
    assert (decision.outcome, decision.last_automatic) == (outcome, last)
    if outcome == "to_gm":
        assert decision.new_deadline is None and "Your request was passed on to the GM, who decides" in decision.said


def test_000_VII_5_beyond_the_allowance_the_rule_is_said_in_words_then_the_clause() -> None:
    decision = decide_delay(load_ruleset("mhr"), request(used=1))
    assert decision.said == (
        "Each player may have 1 delay a game year granted at once, and you have had 1 in 1901 (house rules "
        "000 VII(5): after a warning the GM may refuse further delays). Your request was passed on to the GM, who "
        "decides; the deadline stands unless the GM moves it.")


@pytest.mark.parametrize("received", [DEADLINE, DEADLINE + timedelta(minutes=1)])
def test_001_IV_5_only_requests_received_before_the_deadline_are_granted_at_once(received) -> None:
    decision = decide_delay(load_ruleset("danivon"), request(received=received))
    assert decision.outcome == "to_gm"
    assert decision.said.startswith("A delay is granted at once only on a request received before the deadline "
                                    "(house rules 001 IV(5)); yours came after it. Your request was passed on")


def test_a_power_in_civil_disorder_is_not_granted_a_delay_at_once() -> None:
    decision = decide_delay(load_ruleset("mhr"), request(civil_disorder=True))
    assert decision.outcome == "to_gm" and "Your power is in civil disorder" in decision.said


@pytest.mark.parametrize("profile", ["scorpion", "gwm", "standard"])
def test_003_10_gm_decides_every_request_goes_to_the_gm(profile) -> None:
    decision = decide_delay(load_ruleset(profile), request())
    assert (decision.outcome, decision.new_deadline) == ("to_gm", None)
    assert "Your request was passed on to the GM, who decides on every delay in this game" in decision.said


def test_003_10_the_scorpion_clause_is_cited() -> None:
    assert "(house rules 003 [10])" in decide_delay(load_ruleset("scorpion"), request()).said


def test_no_delays_refused_with_the_rule_in_words() -> None:
    ruleset = dataclasses.replace(load_ruleset("mhr"), delay_policy="none")
    decision = decide_delay(ruleset, request())
    assert decision.outcome == "refused"
    # mhr's document grants delays: a game set to none cites no clause for it
    assert decision.said == ("Deadlines are not delayed at a player's request in this game: only the GM may "
                             "move a deadline (this game's rules, where its house rules are silent).")


def test_a_game_without_a_deadline_has_nothing_to_delay() -> None:
    decision = decide_delay(load_ruleset("mhr"), request(deadline=None))
    assert decision.outcome == "refused" and "no deadline to delay" in decision.said


def test_gm_decides_where_the_document_grants_at_once_cites_no_clause() -> None:
    ruleset = dataclasses.replace(load_ruleset("mhr"), delay_policy="gm_decides")
    assert clause(ruleset) == "this game's rules, where its house rules are silent"
    assert decide_delay(ruleset, request()).outcome == "to_gm"


@pytest.mark.parametrize(("deadline", "hours", "zone", "expected"), [
    # whole days keep 18:00 on the game's clocks across the end of summer time
    (datetime(2026, 10, 24, 17, 0, tzinfo=UTC), 48, "Europe/London", datetime(2026, 10, 26, 18, 0, tzinfo=UTC)),
    (datetime(2026, 10, 24, 17, 0, tzinfo=UTC), 48, "UTC", datetime(2026, 10, 26, 17, 0, tzinfo=UTC)),
    # other lengths are exact durations
    (datetime(2026, 10, 24, 17, 0, tzinfo=UTC), 36, "Europe/London", datetime(2026, 10, 26, 5, 0, tzinfo=UTC)),
    (datetime(2026, 12, 31, 18, 0, tzinfo=UTC), 24, "UTC", datetime(2027, 1, 1, 18, 0, tzinfo=UTC)),
])
def test_delayed_deadline(deadline, hours, zone, expected) -> None:
    assert delayed_deadline(deadline, hours, zone) == expected


@pytest.mark.parametrize(("phase", "year"), [("S1901M", 1901), ("W1905A", 1905), ("COMPLETED", None)])
def test_game_year(phase, year) -> None:
    assert game_year(phase) == year


@pytest.mark.parametrize(("profile", "point"), [
    ("mhr", "To ask for a delay, send the GM a message whose first line is DELAY, with your reason: a request "
            "received before the deadline moves it by 48 hours for every player, up to 1 delay for each player a "
            "game year; the GM decides on further requests (000 VII(5))."),
    ("danivon", "up to 1 delay for each player a game year; the GM decides on further requests (001 IV(5))."),
    ("scorpion", "To ask for a delay, send the GM a message whose first line is DELAY, with your reason; the GM "
                 "decides (003 [10])."),
    ("gwm", "first line is DELAY, with your reason; the GM decides."),
])
def test_000_VII_5_the_start_mail_says_how_to_ask_for_a_delay(profile, point) -> None:
    assert any(point in line for line in key_points(load_ruleset(profile)))
