"""000 III(1) through intake: the confirmation of an mhr game asks about an invalid set only when
(a) the GM has not switched clarifications off for the player (the GM judges whether
such sets are unusual from the player, shown how often their sets had invalid lines), (b) time
remains, (c) it is not meant as written; and confirm_each_set = false files a set read as written
without a reply."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from sqlalchemy import select

from gmserver.db.models import GmAction, OrderSet
from gmserver.db.session import transaction
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.commands import gm_controls
from gmserver.services.game.games import POWERS, GameError, GameSpec, PlayerSpec, create_game, show_game
from tests.support.intake_rows import france_confirmations, game_row, gm_mail
from tests.support.world import GM, new_game, player_address, services_for

pytestmark = pytest.mark.integration

INVALID_SET = "A Par - Xyz\nA Mar S A Par - Bur\nF Bre - Pic"  # line 1: 'Xyz' is no province


def _send(services, clock, template: str, game: str, sets: tuple[tuple[str, str], ...]) -> list[str]:
    """Each (marker, body) as France's order mail; the body of every confirmation, flattened."""
    return [" ".join(text.split()) for text in france_confirmations(services, clock, template, game, sets)]


VALID_SET = "A Par - Bur\nA Mar S A Par - Bur\nF Bre - Pic"
NOT_ASKED = "here the GM has found that sets with lines that cannot be used are not unusual from you"


def _record(services, game: str = "mh", power: str = "FRANCE") -> tuple[bool, dict]:
    """What `gmserver game show` gives the GM for the power: the switch and the record."""
    player = show_game(services.sessions, game)["players"][power]
    return player["clarifications"], player["invalid_sets"]


def test_000_III_1_a_the_gm_switches_clarifications_off_for_a_player(database_url, clock) -> None:
    """(a) is the GM's: France's second invalid set in a row is still asked about;
    the GM, shown 2 of 2 sets with invalid lines, switches clarifications off and the third gets a
    receipt only that says why; switched on again, the fifth is asked about again."""
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    first, second = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET), ("[2]", INVALID_SET)))
    for reply in (first, second):
        assert "PLEASE CHECK: 1 line of this set cannot be used line 1 (A Par - Xyz)" in reply
        assert "reply to this mail with a corrected set before" in reply and "(house rules 000 III(1))" in reply
    assert _record(services) == (True, {"invalid": 2, "sets": 2, "recent_invalid": 2, "recent": 2})

    done = gm_controls.act(services, "mh", gm_controls.clarify, "FRANCE", False, now=clock())
    assert done.text == ("FRANCE's sets with lines that cannot be used get a receipt only (000 III(1) (a)); "
                         "2 of 2 sets in this game had lines that could not be used")
    assert done.announced == 0  # each receipt tells the player why
    third = _send(services, clock, "mhr", "mh", (("[3]", INVALID_SET),))[-1]
    assert "PLEASE CHECK" not in third and "NOT USED" not in third and "A Par - Xyz" not in third
    assert "The GM confirms receipt only" in third and NOT_ASKED in third
    fourth = _send(services, clock, "mhr", "mh", (("[4]", VALID_SET),))[-1]
    assert "The GM confirms receipt only" not in fourth and "A PAR - BUR" in fourth.upper()  # no invalid line
    # newest first: [4] valid, [3] and [2] invalid: 2 of the last 3; 3 of all 4
    assert _record(services) == (False, {"invalid": 3, "sets": 4, "recent_invalid": 2, "recent": 3})
    from gmserver.cli.game import _clarify_status

    assert _clarify_status(show_game(services.sessions, "mh")["players"]["FRANCE"]) == (
        ", lines not used in 3 of 4 sets (2 of the last 3), clarifications off (000 III(1))")

    with pytest.raises(GameError, match="clarifications for FRANCE are off already"):
        gm_controls.act(services, "mh", gm_controls.clarify, "FRANCE", False, now=clock())
    gm_controls.act(services, "mh", gm_controls.clarify, "france", True, now=clock())
    fifth = _send(services, clock, "mhr", "mh", (("[5]", INVALID_SET),))[-1]
    assert "PLEASE CHECK: 1 line of this set cannot be used line 1 (A Par - Xyz)" in fifth
    with transaction(services.sessions) as session:
        assert [(a.action, a.by, a.arguments) for a in session.scalars(select(GmAction).order_by(GmAction.id))] == [
            ("clarify", "cli", {"power": "FRANCE", "on": False, "invalid": 2, "sets": 2}),
            ("clarify", "cli", {"power": "FRANCE", "on": True, "invalid": 3, "sets": 4})]


def test_000_III_1_a_the_switch_is_the_players_own(database_url, clock) -> None:
    """Clarifications off for France leave Germany asked; a new player for France starts with
    clarifications on and a record of their own (the old player's sets are not theirs)."""
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET),))
    gm_controls.act(services, "mh", gm_controls.clarify, "FRANCE", False, now=clock())
    assert _record(services, power="GERMANY") == (True, {"invalid": 0, "sets": 0, "recent_invalid": 0, "recent": 0})
    clock.advance(minutes=5)
    gm_controls.act(services, "mh", gm_controls.replace, "FRANCE", "marianne@players.test", now=clock())
    assert _record(services) == (True, {"invalid": 0, "sets": 0, "recent_invalid": 0, "recent": 0})


def test_000_III_1_a_clarify_by_gm_mail(database_url, clock) -> None:
    """The GM's mail command "clarify POWER off" does what `gmserver game clarify` does."""
    services = services_for(database_url)
    new_game(services, clock(), name="lepanto", ruleset="mhr", movement_hours=48)
    secret = game_row(services).gm_secret
    row, answer = gm_mail(services, f"clarify FRANCE off\nclarify FRANCE maybe\nPassword: {secret}", clock())
    assert row.outcome == "command-done"
    assert "Done: FRANCE's sets with lines that cannot be used get a receipt only (000 III(1) (a))" in answer
    assert "expected: clarify [GAME] POWER on|off" in answer
    assert _record(services, "lepanto")[0] is False
    with transaction(services.sessions) as session:
        assert [(a.action, a.by) for a in session.scalars(select(GmAction))] == [("clarify", GM)]


def test_000_III_1_a_no_switch_where_the_rules_leave_the_gm_no_choice(database_url, clock) -> None:
    """danivon (echo_always, 001 II(1)): every set gets its reading; the switch is refused, nothing recorded."""
    services = services_for(database_url)
    new_game(services, clock(), name="dv", ruleset="danivon")
    with pytest.raises(GameError, match="leave the GM no choice"):
        gm_controls.act(services, "dv", gm_controls.clarify, "FRANCE", False, now=clock())
    assert _record(services, "dv")[0] is True
    with transaction(services.sessions) as session:
        assert session.scalars(select(GmAction)).all() == []


def test_000_III_1_b_too_little_time_left(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    clock.advance(hours=40)  # 8 hours left, fewer than clarification_min_hours = 12
    (reply,) = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET),))
    assert "PLEASE CHECK" not in reply and "here less than 12 hours remain before the deadline" in reply


def test_000_III_1_c_as_written_is_taken_at_its_word(database_url, clock) -> None:
    services = services_for(database_url)
    new_game(services, clock(), name="mh", ruleset="mhr", movement_hours=48)
    (reply,) = _send(services, clock, "mhr", "mh", (("[1]", INVALID_SET + "\nOrders as written"),))
    assert "PLEASE CHECK" not in reply and "here you said the orders are meant as written" in reply
    assert "The GM confirms receipt only" in reply


def test_confirm_each_set_false_files_a_valid_set_without_a_reply(database_url, clock) -> None:
    """A set read as written is filed (it is on file) but not confirmed; a set with a line not
    used is confirmed."""
    services = services_for(database_url)
    rules = dataclasses.replace(load_ruleset("standard"), confirm_each_set=False)
    with transaction(services.sessions) as session:
        create_game(session, GameSpec(
            name="quiet", ruleset=rules,
            players=[PlayerSpec(p, player_address(p), None) for p in POWERS],
            movement=timedelta(hours=48), retreat=timedelta(hours=24), adjustment=timedelta(hours=24),
            reminder=timedelta(hours=24), sender_check="from"), clock())
    (reply,) = _send(services, clock, "default", "quiet", (("", "A Par - Bur"), ("", INVALID_SET)))
    assert "NOT USED" in reply
    with transaction(services.sessions) as session:
        assert len(session.scalars(select(OrderSet)).all()) == 2
