"""What a confirmation says of the set itself: whether it is preliminary or final where the house
rules tell them apart (000 II(1)), and that a power in civil disorder has its orders filed but
not used (000 VII(6))."""

from __future__ import annotations

import pytest

from gmserver.db.models import Game
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.game.players import set_civil_disorder
from tests.support.intake_rows import outbox_rows, plain_text, send_orders
from tests.support.world import new_game, player_address, services_for

pytestmark = pytest.mark.integration


def _confirmation(services, clock, game: str, profile: str, body: str, power: str = "FRANCE") -> str:
    send_orders(services, clock(), power, body, "S1901M", game=game, template=load_ruleset(profile).subject_template)
    mine = [row for row in outbox_rows(services, "confirmation") if row.recipient == player_address(power)]
    return " ".join(plain_text(mine[-1]).split())


def test_an_mhr_confirmation_says_whether_the_set_is_preliminary_or_final_000_II_1(database_url, clock) -> None:
    """000 II(1): orders are preliminary unless marked final (default_set_status = preliminary);
    the confirmation says which this set is, and how to make it final."""
    services = services_for(database_url)
    new_game(services, clock(), name="mhrgame", ruleset="mhr")
    first = _confirmation(services, clock, "mhrgame", "mhr", "A PAR H\nA MAR H\nF BRE H")
    assert "This set is preliminary (000 II(1))" in first
    assert '"Final"' in first  # how to mark one final
    final = _confirmation(services, clock, "mhrgame", "mhr", "Final\nA PAR - BUR\nA MAR H\nF BRE H")
    assert "This set is final (000 II(1))" in final and "preliminary" not in final


@pytest.mark.parametrize("profile", ["standard", "danivon"])
def test_no_preliminary_or_final_where_the_rules_do_not_tell_them_apart(database_url, clock, profile) -> None:
    """Every set is final and nothing waits on it (default_set_status = final, early_processing =
    never): the confirmation says nothing of it."""
    services = services_for(database_url)
    new_game(services, clock(), name="plain", ruleset=profile)
    text = _confirmation(services, clock, "plain", profile, "A PAR H\nA MAR H\nF BRE H")
    assert "preliminary" not in text and "This set is final" not in text


def test_a_power_in_civil_disorder_is_told_its_orders_are_not_used_000_VII_6(database_url, clock) -> None:
    """000 VII(6) ¶2: a country in civil disorder has its units hold "from that point forward";
    orders its player sends are filed, and the confirmation says they will not be used and why,
    instead of a plain "Your orders were received"."""
    services = services_for(database_url)
    game_id = new_game(services, clock(), name="mhrgame", ruleset="mhr")
    with transaction(services.sessions) as session:
        set_civil_disorder(session, session.get(Game, game_id), "FRANCE", True, clock())
    text = _confirmation(services, clock, "mhrgame", "mhr", "A PAR - BUR\nA MAR H\nF BRE H")
    assert "France is in civil disorder (000 VII(6) ¶2): these orders will not be used" in text
    assert "its units hold" in text
    other = _confirmation(services, clock, "mhrgame", "mhr", "A VIE H\nA BUD H\nF TRI H", power="AUSTRIA")
    assert "civil disorder" not in other
