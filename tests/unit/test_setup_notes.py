"""What `gmserver game create` tells the GM about the players given (the QA walkthrough: a game
created with two players of seven, or one address for two powers, said nothing)."""

from __future__ import annotations

from gmserver.rules.position import Position
from gmserver.rules.ruleset import load_ruleset
from gmserver.services.game.games import POWERS, GameSpec, PlayerSpec, setup_notes


def spec(*players: tuple[str, str], position: Position | None = None) -> GameSpec:
    return GameSpec(name="lepanto", ruleset=load_ruleset("standard"),
                    players=[PlayerSpec(power, address) for power, address in players], position=position)


def test_a_full_table_needs_no_note() -> None:
    assert setup_notes(spec(*((p, f"{p.lower()}@p.test") for p in POWERS))) == []


def test_powers_with_no_player_are_named_and_the_way_out_given() -> None:
    (note,) = setup_notes(spec(("AUSTRIA", "a@p.test"), ("ENGLAND", "e@p.test")))
    assert note == ("France, Germany, Italy, Russia, Turkey have no player: their units hold every turn until you "
                    "give them one with `gmserver game replace NAME POWER ADDRESS`")


def test_a_power_with_no_units_in_the_position_needs_no_player() -> None:
    position = Position(phase="S1901M", units={"FRANCE": ("A PAR",), "GERMANY": ("A MUN",)}, centers={})
    assert setup_notes(spec(("FRANCE", "f@p.test"), ("GERMANY", "g@p.test"), position=position)) == []
    (note,) = setup_notes(spec(("FRANCE", "f@p.test"), position=position))
    assert note.startswith("Germany has no player")


def test_one_address_for_two_powers_is_said() -> None:
    players = [(p, f"{p.lower()}@p.test") for p in POWERS if p not in ("ENGLAND", "FRANCE")]
    notes = setup_notes(spec(*players, ("ENGLAND", "same@p.test"), ("FRANCE", "same@p.test")))
    assert notes == ["same@p.test plays England and France"]
