"""What becomes of a power whose player resigns (gmserver.rules.resignation): the house rules on
an abandoned position, each profile with its clause."""

from __future__ import annotations

import pytest

from gmserver.rules.resignation import after_resignation
from gmserver.rules.ruleset import load_ruleset


@pytest.mark.parametrize(("profile", "phase", "clause", "suspend", "search"), [
    ("mhr", "F1903M", "000 VII(6)", False, False),  # permanent civil disorder
    ("scorpion", "F1903M", "003 [13]", False, False),  # permanent until replaced
    ("danivon", "F1903M", "001 V(3)", False, False),  # the GM chooses
    ("danivon", "S1901M", "001 V(3)", True, True),  # first year: a replacement always sought, the game waits
    ("email_rules", "F1903M", "002 ORDERS 0", False, True),  # the GM tries to replace the player
    ("standard", "F1903M", None, False, False),  # the rulebook is silent: civil disorder
])
def test_a_resignation_follows_the_profile_s_rule_on_abandoned_positions(profile, phase, clause, suspend,
                                                                           search) -> None:
    course = after_resignation(load_ruleset(profile), phase)
    assert (course.suspend, course.search) == (suspend, search)
    assert "civil disorder" in course.said
    if clause:
        assert f"(house rules {clause})" in course.said
    else:
        assert "house rules" not in course.said


def test_the_gm_is_offered_the_search_period_where_the_rules_set_one_001_V_3_ii() -> None:
    course = after_resignation(load_ruleset("danivon"), "F1903M")
    assert "for 2 game years" in course.to_gm and "001 V(3)(ii)" in course.to_gm
